// The group calls, through the typed client: groups, their members, and the balances and payments
// between members. The list of the caller's groups is read by the session (stores/session.ts).
import { client, ok } from '../../api/client';
import type { operations } from '../../api/schema';
import type { Group, Member } from '../../api/types';

type Json<Op extends keyof operations> =
  operations[Op]['responses'] extends Record<200, { content: { 'application/json': infer B } }> ? B : never;
type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
export type Balances = Json<'getGroupsByIdBalances'>;
export type Suggested = Json<'getGroupsByIdSettlementsSuggested'>['list'][number];
export type Settlement = Json<'getGroupsByIdSettlements'>['list'][number];
export type GroupChange = Body<'putGroupsById'>;
export type Payment = Body<'postGroupsByIdSettlements'>;

const at = (id: number) => ({ params: { path: { id } } });

export function fetchGroup(id: number): Promise<Group> {
  return ok(client.GET('/api/groups/{id}', at(id)));
}

export async function fetchMembers(id: number): Promise<Member[]> {
  return (await ok(client.GET('/api/groups/{id}/members', at(id)))).list;
}

export async function createGroup(name: string, splitCosts: boolean): Promise<void> {
  await ok(client.POST('/api/groups', { body: { name, split_costs: splitCosts } }));
}

export function joinGroup(inviteCode: string): Promise<Group> {
  return ok(client.POST('/api/groups/join', { body: { invite_code: inviteCode } }));
}

export function updateGroup(id: number, body: GroupChange): Promise<Group> {
  return ok(client.PUT('/api/groups/{id}', { ...at(id), body }));
}

export async function removeMember(id: number, userId: number): Promise<void> {
  await ok(client.POST('/api/groups/{id}/remove-member', { ...at(id), body: { user_id: userId } }));
}

export async function refreshCode(id: number): Promise<void> {
  await ok(client.POST('/api/groups/{id}/refresh-code', at(id)));
}

/** Dissolves a group; without `force` a group whose balances are not settled is refused (42201). */
export async function dissolveGroup(id: number, force: boolean): Promise<void> {
  await ok(
    client.POST('/api/groups/{id}/dissolve', { params: { path: { id }, query: force ? { force: true } : undefined } }),
  );
}

export async function leaveGroup(id: number): Promise<void> {
  await ok(client.POST('/api/groups/{id}/leave', at(id)));
}

export function fetchBalances(id: number): Promise<Balances> {
  return ok(client.GET('/api/groups/{id}/balances', at(id)));
}

export async function fetchSuggested(id: number): Promise<Suggested[]> {
  return (await ok(client.GET('/api/groups/{id}/settlements/suggested', at(id)))).list;
}

export async function fetchSettlements(id: number): Promise<Settlement[]> {
  return (await ok(client.GET('/api/groups/{id}/settlements', { params: { path: { id }, query: { pageSize: 50 } } })))
    .list;
}

export async function recordPayment(id: number, body: Payment): Promise<void> {
  await ok(client.POST('/api/groups/{id}/settlements', { ...at(id), body }));
}

export async function confirmPayment(settlementId: number): Promise<void> {
  await ok(client.POST('/api/settlements/{id}/confirm', at(settlementId)));
}

export async function takeBackPayment(settlementId: number): Promise<void> {
  await ok(client.DELETE('/api/settlements/{id}', at(settlementId)));
}
