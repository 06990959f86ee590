// The calls of reading receipts: a file read into a draft, the saved entry's attachments.
import { authedFetch, client, ok, upload } from '../../api/client';
import type { operations } from '../../api/schema';

export type Recognition = operations['postReceiptsRecognize']['responses'][200]['content']['application/json'];
export type ReceiptDraft = Recognition['draft'];
export type Attachment =
  operations['getTransactionsByIdAttachments']['responses'][200]['content']['application/json']['list'][number];

function formOf(blob: Blob, name: string): FormData {
  const form = new FormData();
  form.append('file', blob, name || 'receipt');
  return form;
}

export function recognize(blob: Blob, name: string): Promise<Recognition> {
  return upload<Recognition>('/api/receipts/recognize', formOf(blob, name));
}

export function attach(transactionId: number, blob: Blob, name: string): Promise<Attachment> {
  return upload<Attachment>(`/api/transactions/${transactionId}/attachments`, formOf(blob, name));
}

export async function attachments(transactionId: number): Promise<Attachment[]> {
  const res = await ok(client.GET('/api/transactions/{id}/attachments', { params: { path: { id: transactionId } } }));
  return res.list;
}

/** An attachment file as it is stored. */
export async function fileOf(id: number, thumbnail: boolean): Promise<Blob> {
  const path = `/api/attachments/${id}/${thumbnail ? 'thumbnail' : 'file'}`;
  const res = await authedFetch(new Request(new URL(path, location.origin)));
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.blob();
}

/**
 * An attachment's picture as a data: address (the page's images may come from there, and an
 * <img> cannot send the session's token).
 */
export async function pictureOf(id: number, thumbnail: boolean): Promise<string> {
  const blob = await fileOf(id, thumbnail);
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}
