// Where the installed app receives what other apps share to it (the manifest's share_target): the
// service worker answers this address and keeps the files for the add form. Plain names, also read
// by the build (vite.config.ts).
export const SHARE_TARGET_PATH = '/share-target';
/** the multipart field the shared files come in */
export const SHARE_TARGET_FILES = 'files';
/** where the service worker sends the app after keeping the files: the add form */
export const SHARE_TARGET_OPENS = '/books?new=1';
