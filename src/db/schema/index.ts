export * from './users.ts';
export * from './system.ts';
export * from './groups.ts';
export * from './books.ts';
export * from './messages.ts';
export * from './credentials.ts';
export * from './accounts.ts';
export * from './imports.ts';
