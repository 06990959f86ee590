import { Type } from 'typebox';

export const PageQuery = {
  // bounded so that the offset stays an exact integer the database accepts (page=1e300 would not)
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'page number, from 1 to 1,000,000' }),
  ),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'rows per page, 1 to 100' }),
  ),
};

export function pageOf(q: { page?: number; pageSize?: number }): { limit: number; offset: number } {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 20;
  return { limit: pageSize, offset: (page - 1) * pageSize };
}
