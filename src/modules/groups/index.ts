// The public face of the groups module: what other modules, plugins and the composition root may use.
export { default as groupsRoutes } from './groups.routes.ts';
export { createGroupsService, randomInviteCode } from './groups.service.ts';
export { groupById, insertGroup, insertMember } from './groups.repo.ts';
export { GROUP_MEMBER_CAP } from './groups.schemas.ts';
