/**
 * Generated from GET /openapi.json by scripts/gen-api-types.ts (`npm run api:types`);
 * do not edit by hand. The web code imports these through ./types.ts.
 */
export interface paths {
  '/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET / */
    get: operations['getRoot'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/host-meta': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /.well-known/host-meta */
    get: operations['getWellKnownHostMeta'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/jwks.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /.well-known/jwks.json */
    get: operations['getWellKnownJwksJson'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/nodeinfo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /.well-known/nodeinfo */
    get: operations['getWellKnownNodeinfo'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/webfinger': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /.well-known/webfinger */
    get: operations['getWellKnownWebfinger'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/activities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/activities */
    get: operations['getAdminActivities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/backup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The newest backup and restore jobs */
    get: operations['getAdminBackup'];
    put?: never;
    /** Queue a backup */
    post: operations['postAdminBackup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/backup/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/backup/:id */
    get: operations['getAdminBackupById'];
    put?: never;
    post?: never;
    /** DELETE /admin/backup/:id */
    delete: operations['deleteAdminBackupById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/backup/{id}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The archive of a finished backup */
    get: operations['getAdminBackupByIdDownload'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/backup/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Restore from an uploaded archive */
    post: operations['postAdminBackupRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/circles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/circles */
    get: operations['getAdminCircles'];
    put?: never;
    /** POST /admin/circles */
    post: operations['postAdminCircles'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/circles/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/circles/:id */
    get: operations['getAdminCirclesById'];
    put?: never;
    post?: never;
    /** DELETE /admin/circles/:id */
    delete: operations['deleteAdminCirclesById'];
    options?: never;
    head?: never;
    /** PATCH /admin/circles/:id */
    patch: operations['patchAdminCirclesById'];
    trace?: never;
  };
  '/admin/circles/{id}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /admin/circles/:id/restore */
    post: operations['postAdminCirclesByIdRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/flagged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/flagged */
    get: operations['getAdminFlagged'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/flagged/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/flagged/:id */
    get: operations['getAdminFlaggedById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** PATCH /admin/flagged/:id */
    patch: operations['patchAdminFlaggedById'];
    trace?: never;
  };
  '/admin/groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/groups */
    get: operations['getAdminGroups'];
    put?: never;
    /** POST /admin/groups */
    post: operations['postAdminGroups'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/groups/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/groups/:id */
    get: operations['getAdminGroupsById'];
    put?: never;
    post?: never;
    /** DELETE /admin/groups/:id */
    delete: operations['deleteAdminGroupsById'];
    options?: never;
    head?: never;
    /** PATCH /admin/groups/:id */
    patch: operations['patchAdminGroupsById'];
    trace?: never;
  };
  '/admin/groups/{id}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /admin/groups/:id/restore */
    post: operations['postAdminGroupsByIdRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/invites': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/invites */
    get: operations['getAdminInvites'];
    put?: never;
    /** POST /admin/invites */
    post: operations['postAdminInvites'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/invites/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/invites/:id */
    get: operations['getAdminInvitesById'];
    put?: never;
    post?: never;
    /** DELETE /admin/invites/:id */
    delete: operations['deleteAdminInvitesById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/pages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/pages */
    get: operations['getAdminPages'];
    put?: never;
    /** POST /admin/pages */
    post: operations['postAdminPages'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/pages/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/pages/:id */
    get: operations['getAdminPagesById'];
    put?: never;
    post?: never;
    /** DELETE /admin/pages/:id */
    delete: operations['deleteAdminPagesById'];
    options?: never;
    head?: never;
    /** PATCH /admin/pages/:id */
    patch: operations['patchAdminPagesById'];
    trace?: never;
  };
  '/admin/pages/{id}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /admin/pages/:id/restore */
    post: operations['postAdminPagesByIdRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/posts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/posts */
    get: operations['getAdminPosts'];
    put?: never;
    /** POST /admin/posts */
    post: operations['postAdminPosts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/posts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/posts/:id */
    get: operations['getAdminPostsById'];
    put?: never;
    post?: never;
    /** DELETE /admin/posts/:id */
    delete: operations['deleteAdminPostsById'];
    options?: never;
    head?: never;
    /** PATCH /admin/posts/:id */
    patch: operations['patchAdminPostsById'];
    trace?: never;
  };
  '/admin/posts/{id}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /admin/posts/:id/restore */
    post: operations['postAdminPostsByIdRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/recommendations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/recommendations */
    get: operations['getAdminRecommendations'];
    put?: never;
    /** POST /admin/recommendations */
    post: operations['postAdminRecommendations'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/recommendations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/recommendations/:id */
    get: operations['getAdminRecommendationsById'];
    put?: never;
    post?: never;
    /** DELETE /admin/recommendations/:id */
    delete: operations['deleteAdminRecommendationsById'];
    options?: never;
    head?: never;
    /** PATCH /admin/recommendations/:id */
    patch: operations['patchAdminRecommendationsById'];
    trace?: never;
  };
  '/admin/recommendations/{id}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /admin/recommendations/:id/restore */
    post: operations['postAdminRecommendationsByIdRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/sections': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/sections */
    get: operations['getAdminSections'];
    put?: never;
    /** POST /admin/sections */
    post: operations['postAdminSections'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/sections/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/sections/:id */
    get: operations['getAdminSectionsById'];
    put?: never;
    post?: never;
    /** DELETE /admin/sections/:id */
    delete: operations['deleteAdminSectionsById'];
    options?: never;
    head?: never;
    /** PATCH /admin/sections/:id */
    patch: operations['patchAdminSectionsById'];
    trace?: never;
  };
  '/admin/sections/{id}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /admin/sections/:id/restore */
    post: operations['postAdminSectionsByIdRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/servers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/servers */
    get: operations['getAdminServers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/servers/{domain}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/servers/:domain */
    get: operations['getAdminServersByDomain'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** PATCH /admin/servers/:domain */
    patch: operations['patchAdminServersByDomain'];
    trace?: never;
  };
  '/admin/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/settings */
    get: operations['getAdminSettings'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** PATCH /admin/settings */
    patch: operations['patchAdminSettings'];
    trace?: never;
  };
  '/admin/settings/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/settings/:name */
    get: operations['getAdminSettingsByName'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** PATCH /admin/settings/:name */
    patch: operations['patchAdminSettingsByName'];
    trace?: never;
  };
  '/admin/system': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Counts, database, disk and process figures */
    get: operations['getAdminSystem'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/system/admins': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/system/admins */
    get: operations['getAdminSystemAdmins'];
    put?: never;
    /** POST /admin/system/admins */
    post: operations['postAdminSystemAdmins'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/system/admins/{userId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** DELETE /admin/system/admins/:userId */
    delete: operations['deleteAdminSystemAdminsByUserId'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/system/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/system/logs */
    get: operations['getAdminSystemLogs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/system/mods': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/system/mods */
    get: operations['getAdminSystemMods'];
    put?: never;
    /** POST /admin/system/mods */
    post: operations['postAdminSystemMods'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/system/mods/{userId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** DELETE /admin/system/mods/:userId */
    delete: operations['deleteAdminSystemModsByUserId'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/users */
    get: operations['getAdminUsers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/users/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /admin/users/:id */
    get: operations['getAdminUsersById'];
    put?: never;
    post?: never;
    /** DELETE /admin/users/:id */
    delete: operations['deleteAdminUsersById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/users/{id}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /admin/users/:id/restore */
    post: operations['postAdminUsersByIdRestore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/whoami': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The admin the token belongs to */
    get: operations['getAdminWhoami'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ap/actor': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /ap/actor */
    get: operations['getApActor'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ap/objects/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /ap/objects/:id */
    get: operations['getApObjectsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ap/users/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /ap/users/:name */
    get: operations['getApUsersByName'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ap/users/{name}/followers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /ap/users/:name/followers */
    get: operations['getApUsersByNameFollowers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ap/users/{name}/following': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /ap/users/:name/following */
    get: operations['getApUsersByNameFollowing'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ap/users/{name}/outbox': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /ap/users/:name/outbox */
    get: operations['getApUsersByNameOutbox'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/forgot-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /auth/forgot-password */
    post: operations['postAuthForgotPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Sign in */
    post: operations['postAuthLogin'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signed-in user */
    get: operations['getAuthMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/resend-verification': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /auth/resend-verification */
    post: operations['postAuthResendVerification'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/reset-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /auth/reset-password */
    post: operations['postAuthResetPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/verify-email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /auth/verify-email */
    get: operations['getAuthVerifyEmail'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bookmarks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /bookmarks */
    get: operations['getBookmarks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bookmarks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /bookmarks/:id */
    get: operations['getBookmarksById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/circles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /circles */
    get: operations['getCircles'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/circles/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /circles/:id */
    get: operations['getCirclesById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/circles/{id}/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /circles/:id/members */
    get: operations['getCirclesByIdMembers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/circles/{id}/posts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A circle timeline page */
    get: operations['getCirclesByIdPosts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/circles/{id}/seen': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** PATCH /circles/:id/seen */
    patch: operations['patchCirclesByIdSeen'];
    trace?: never;
  };
  '/config.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The server settings a client needs */
    get: operations['getConfigJson'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/files': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /files */
    get: operations['getFiles'];
    put?: never;
    /** Upload a file (the "file" field) */
    post: operations['postFiles'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/files/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The stored file, with its own media type */
    get: operations['getFilesById'];
    put?: never;
    post?: never;
    /** DELETE /files/:id */
    delete: operations['deleteFilesById'];
    options?: never;
    head?: never;
    /** Set a file's description (its alt text): the owner only */
    patch: operations['patchFilesById'];
    trace?: never;
  };
  '/files/{id}/meta': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /files/:id/meta */
    get: operations['getFilesByIdMeta'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/files/{id}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The preview image of a file */
    get: operations['getFilesByIdPreview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /groups */
    get: operations['getGroups'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/groups/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /groups/:id */
    get: operations['getGroupsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/groups/{id}/inbox': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /groups/:id/inbox */
    post: operations['postGroupsByIdInbox'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/groups/{id}/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /groups/:id/members */
    get: operations['getGroupsByIdMembers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/groups/{id}/pending': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /groups/:id/pending */
    get: operations['getGroupsByIdPending'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/groups/{id}/posts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /groups/:id/posts */
    get: operations['getGroupsByIdPosts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Health of the gateway and of every service (503 when the database is down) */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inbox': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /inbox */
    post: operations['postInbox'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/invites/{code}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /invites/:code */
    get: operations['getInvitesByCode'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/nodeinfo/2.0': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /nodeinfo/2.0 */
    get: operations['getNodeinfo20'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/nodeinfo/2.1': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /nodeinfo/2.1 */
    get: operations['getNodeinfo21'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/notifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Notifications, newest first */
    get: operations['getNotifications'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/notifications/{notifId}/dismiss': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /notifications/:notifId/dismiss */
    post: operations['postNotificationsByNotifIdDismiss'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/notifications/{notifId}/read': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /notifications/:notifId/read */
    post: operations['postNotificationsByNotifIdRead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/notifications/{notifId}/unread': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /notifications/:notifId/unread */
    post: operations['postNotificationsByNotifIdUnread'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/notifications/read-all': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /notifications/read-all */
    post: operations['postNotificationsReadAll'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/notifications/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Live update hints as Server-Sent Events (docs/api.md, "Live updates") */
    get: operations['getNotificationsStream'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/notifications/unread/count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** How many are unread */
    get: operations['getNotificationsUnreadCount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/outbox': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /outbox */
    get: operations['getOutbox'];
    put?: never;
    /** Post an activity (create, update, delete, follow, react, ...): spec 3 */
    post: operations['postOutbox'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /pages */
    get: operations['getPages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pages/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /pages/:id */
    get: operations['getPagesById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/posts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /posts */
    get: operations['getPosts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/posts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /posts/:id */
    get: operations['getPostsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/posts/{id}/reacts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /posts/:id/reacts */
    get: operations['getPostsByIdReacts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/posts/{id}/replies': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /posts/:id/replies */
    get: operations['getPostsByIdReplies'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /preview */
    get: operations['getPreview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/profile': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /profile */
    get: operations['getProfile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/recommendations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The Discover shelves */
    get: operations['getRecommendations'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create an account (201: a session, or the e-mail verification notice) */
    post: operations['postRegister'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /search */
    get: operations['getSearch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /users */
    get: operations['getUsers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /users/:id */
    get: operations['getUsersById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/activities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /users/:id/activities */
    get: operations['getUsersByIdActivities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/bookmarks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /users/:id/bookmarks */
    get: operations['getUsersByIdBookmarks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/circles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /users/:id/circles */
    get: operations['getUsersByIdCircles'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /users/:id/groups */
    get: operations['getUsersByIdGroups'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/inbox': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /users/:id/inbox */
    post: operations['postUsersByIdInbox'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/notifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Notifications, newest first */
    get: operations['getUsersByIdNotifications'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/notifications/{notifId}/dismiss': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /users/:id/notifications/:notifId/dismiss */
    post: operations['postUsersByIdNotificationsByNotifIdDismiss'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/notifications/{notifId}/read': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /users/:id/notifications/:notifId/read */
    post: operations['postUsersByIdNotificationsByNotifIdRead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/notifications/{notifId}/unread': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /users/:id/notifications/:notifId/unread */
    post: operations['postUsersByIdNotificationsByNotifIdUnread'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/notifications/read-all': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /users/:id/notifications/read-all */
    post: operations['postUsersByIdNotificationsReadAll'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/notifications/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Live update hints as Server-Sent Events (docs/api.md, "Live updates") */
    get: operations['getUsersByIdNotificationsStream'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/notifications/unread/count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** How many are unread */
    get: operations['getUsersByIdNotificationsUnreadCount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/posts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** GET /users/:id/posts */
    get: operations['getUsersByIdPosts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    AdminUser: {
      active?: boolean;
      createdAt?: string;
      deletedAt?: string | null;
      email?: string | null;
      id: string;
      profile?: components['schemas']['Profile'];
      username: string;
    };
    Author: {
      icon: string | null;
      id: string | null;
      name: string | null;
      server?: string | null;
    };
    BackupJob: {
      createdAt?: string;
      error?: string;
      finishedAt?: string;
      id: string;
      kind?: string;
      progress?: {
        pct?: number;
        stage?: string;
      };
      size?: number;
      /** @enum {string} */
      status: 'pending' | 'running' | 'done' | 'failed';
      type?: string;
    };
    Bookmark: {
      actorId?: string;
      createdAt?: string;
      href?: string;
      id: string;
      parentFolder?: string | null;
      summary?: string;
      tags?: string[];
      target?: string;
      title?: string;
      to?: string;
      /** @enum {string} */
      type: 'Bookmark' | 'Folder';
    };
    Circle: {
      actorId?: string;
      id: string;
      isMember?: boolean;
      isOwner?: boolean;
      lastSeenAt?: string | null;
      memberCount?: number;
      members?: components['schemas']['Member'][];
      name: string;
      summary?: string;
      to?: string;
      type?: string;
    };
    DiscoverCard: {
      actor?: {
        id: string;
        name?: string | null;
      };
      id: string;
      memberCount?: number;
      name?: string;
      note?: string;
      recommendation: string;
      refType: string;
      slug?: string;
      summary?: string | null;
      title?: string;
      type?: string;
    };
    DiscoverShelf: {
      id: string;
      items: components['schemas']['DiscoverCard'][];
      name: string;
      slug?: string;
      summary?: string;
    };
    Error: {
      error: string;
    };
    Flag: {
      actorId?: string;
      createdAt?: string;
      id: string;
      notes?: string;
      reason?:
        | string
        | {
            code?: string;
            label?: string;
          };
      /** @enum {string} */
      status: 'open' | 'resolved' | 'dismissed';
      target?: string;
      targetType?: string;
    };
    Group: {
      actorId?: string;
      circles?: {
        [key: string]: string;
      };
      description?: string;
      id: string;
      isAdmin?: boolean;
      isMember?: boolean;
      isPending?: boolean;
      memberCount?: number;
      name: string;
      role?: string | null;
      rsvpPolicy?: string;
      status?: string;
      to?: string;
    };
    Invite: {
      active: boolean;
      code: string;
      email?: string;
      expiresAt?: string | null;
      id: string;
      maxRedemptions?: number | null;
      note?: string;
      redemptionCount?: number;
      redemptions?: number;
      /** @enum {string} */
      type: 'individual' | 'open';
    };
    KnownServer: {
      blocked: boolean;
      blockedAt: string | null;
      blockReason: string | null;
      circuit: {
        /** @enum {string} */
        state: 'closed' | 'open' | 'half-open';
        until: string | null;
      };
      compatible: boolean | null;
      deadDeliveries: number;
      domain: string;
      heldDeliveries: number;
      lastSeenAt: string | null;
      lastSeenVia: string | null;
      nodeinfoError: string | null;
      refusedInbound: number;
      software: {
        name: string;
        version: string;
      } | null;
    };
    Member: {
      icon?: string;
      id: string;
      name?: string;
    };
    Notification: {
      createdAt: string;
      href: string;
      id: string;
      read: boolean;
      summary: string;
      type: string;
    };
    Page: {
      body?: string;
      contentWarning?: string;
      deletedAt?: string | null;
      id: string;
      order?: number;
      sensitive?: boolean;
      slug?: string;
      summary?: string;
      title: string;
      to?: string;
      type?: string;
    };
    Post: {
      attachments?: {
        href?: string;
        id?: string;
        mediaType?: string;
        name?: string;
        url?: string;
      }[];
      attributedTo: components['schemas']['Author'];
      body?: string;
      canReact: boolean;
      canReply: boolean;
      contentWarning?: string;
      href?: string;
      id: string;
      image?: string;
      media?: {
        description: string;
        height?: number;
        id?: string;
        mediaType: string;
        url: string;
        width?: number;
      }[];
      myReact?: string | null;
      published: string | null;
      reactCount?: number;
      reactSummary?: {
        [key: string]: number;
      };
      replyCount?: number;
      sensitive?: boolean;
      shareOf?: string;
      summary?: string;
      title?: string;
      to?: string;
      type: string;
      url?: string;
      visibility?: string;
    };
    Profile: {
      description?: string;
      icon?: string;
      image?: string;
      name?: string;
    };
    React: {
      actor?: {
        name?: string;
      };
      actorId: string;
      emoji: string;
      id: string;
    };
    Recommendation: {
      active?: boolean;
      id: string;
      note?: string;
      order?: number;
      ref: string;
      section: string;
      target?: {
        actor?: {
          id: string;
          name?: string | null;
        };
        id: string;
        name?: string;
        slug?: string;
        summary?: string;
        title?: string;
        type?: string;
      };
    };
    Reply: {
      actor?: {
        icon?: string;
        name?: string;
      };
      actorId: string;
      body?: string;
      contentWarning?: string;
      createdAt?: string;
      id: string;
      parent?: string;
      replyCount?: number;
      sensitive?: boolean;
      target?: string;
    };
    Section: {
      active?: boolean;
      id: string;
      items?: components['schemas']['Recommendation'][];
      name: string;
      order?: number;
      summary?: string;
      to?: string;
    };
    ServerConfig: {
      domain: string;
      flagOptions?: {
        code: string;
        label: string;
      }[];
      reactEmojis?: {
        emoji: string;
        name: string;
      }[];
      registrationIsOpen: boolean;
      requireEmailVerification?: boolean;
      rules?: {
        id: string;
        text: string;
      }[];
      siteTitle: string;
    };
    SessionUser: {
      allFollowing: string | null;
      blocked: string | null;
      email: string | null;
      emailVerified: boolean;
      following: string | null;
      groups: string | null;
      id: string;
      isModerator: boolean;
      isServerAdmin: boolean;
      muted: string | null;
      profile: components['schemas']['Profile'];
      username: string;
    };
    Setting: {
      canEdit: string;
      name: string;
      summary: string;
      to: string;
      ui: {
        type?: string | null;
      };
      value: unknown;
    };
    SystemStats: {
      counts: {
        [key: string]: number;
      };
      db: {
        [key: string]: unknown;
      } | null;
      disk: {
        free?: number;
        total?: number;
        used?: number;
      } | null;
      process: {
        memory: {
          heapUsed: number;
          rss: number;
        };
        node: string;
        uptime: number;
      };
    };
    UploadedFile: {
      description?: string;
      height?: number;
      id: string;
      mediaType?: string;
      type?: string;
      url?: string;
      width?: number;
    };
    UserDetail: {
      followerCount?: number;
      followingCount?: number;
      id: string;
      isBlocked?: boolean;
      isFollowing?: boolean;
      isMuted?: boolean;
      postCount?: number;
      profile?: components['schemas']['Profile'];
      type?: string;
      username?: string;
    };
  };
  responses: {
    /** @description An error: 4xx for a bad request (nothing changed), 5xx for a server fault */
    Error: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getRoot: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getWellKnownHostMeta: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getWellKnownJwksJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getWellKnownNodeinfo: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getWellKnownWebfinger: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminActivities: {
    parameters: {
      query?: {
        actorId?: string;
        objectType?: string;
        type?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminBackup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            jobs: components['schemas']['BackupJob'][];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminBackup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            job: components['schemas']['BackupJob'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminBackupById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminBackupById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminBackupByIdDownload: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/gzip': string;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminBackupRestore: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': Record<string, never>;
      };
    };
    responses: {
      /** @description Success (body not described) */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminCircles: {
    parameters: {
      query?: {
        actorId?: string;
        server?: 'true' | 'false';
        to?: string;
        type?: 'Circle' | 'System';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminCircles: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          icon?: string;
          name: string;
          summary?: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminCirclesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminCirclesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminCirclesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          icon?: string;
          name?: string;
          summary?: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminCirclesByIdRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminFlagged: {
    parameters: {
      query?: {
        actorId?: string;
        status?: 'open' | 'resolved' | 'dismissed' | 'all';
        targetType?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Flag'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminFlaggedById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminFlaggedById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          notes?: string;
          /** @enum {string} */
          status: 'resolved' | 'dismissed';
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminGroups: {
    parameters: {
      query?: {
        rsvpPolicy?: 'open' | 'serverOpen' | 'serverApproval' | 'approvalOnly' | 'inviteOnly';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminGroups: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string;
          icon?: string;
          image?: string;
          location?:
            | string
            | {
                lat: number;
                lon: number;
                name?: string;
              };
          name: string;
          /**
           * @default open
           * @enum {string}
           */
          rsvpPolicy?: 'open' | 'serverOpen' | 'serverApproval' | 'approvalOnly' | 'inviteOnly';
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string;
          icon?: string;
          image?: string;
          location?:
            | string
            | {
                lat: number;
                lon: number;
                name?: string;
              };
          name?: string;
          /** @enum {string} */
          rsvpPolicy?: 'open' | 'serverOpen' | 'serverApproval' | 'approvalOnly' | 'inviteOnly';
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminGroupsByIdRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminInvites: {
    parameters: {
      query?: {
        active?: 'true' | 'false';
        type?: 'individual' | 'open';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Invite'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminInvites: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email?: string;
          /** Format: date-time */
          expiresAt?: string;
          maxRedemptions?: number | null;
          note?: string;
          /**
           * @default individual
           * @enum {string}
           */
          type?: 'individual' | 'open';
          welcomeMessage?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            invite: components['schemas']['Invite'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminInvitesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminInvitesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminPages: {
    parameters: {
      query?: {
        parentId?: string;
        type?: 'Page' | 'Folder';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminPages: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          content?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          contentWarning?: string;
          href?: string;
          image?: string | null;
          /** @default 0 */
          order?: number;
          parentId?: string | null;
          sensitive?: boolean;
          slug?: string;
          source?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          summary?: string;
          tags?: string[];
          title: string;
          /**
           * @default Page
           * @enum {string}
           */
          type?: 'Page' | 'Folder';
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminPagesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminPagesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminPagesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          content?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          contentWarning?: string;
          href?: string;
          image?: string | null;
          order?: number;
          parentId?: string | null;
          sensitive?: boolean;
          slug?: string;
          source?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          summary?: string;
          tags?: string[];
          title?: string;
          /** @enum {string} */
          type?: 'Page' | 'Folder';
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminPagesByIdRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminPosts: {
    parameters: {
      query?: {
        actorId?: string;
        type?: string;
        visibility?: 'all' | 'default';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminPosts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          attachments?: (
            | string
            | {
                fileId: string;
              }
          )[];
          content?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          contentWarning?: string;
          endTime?: unknown;
          featuredImage?: string;
          href?: string;
          image?: string;
          location?:
            | string
            | {
                lat: number;
                lon: number;
                name?: string;
              };
          sensitive?: boolean;
          source?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          startTime?: unknown;
          summary?: string;
          tags?: string[];
          title?: string;
          /**
           * @default Note
           * @enum {string}
           */
          type?: 'Note' | 'Article';
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminPostsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminPostsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminPostsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          content?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          contentWarning?: string;
          endTime?: unknown;
          featuredImage?: string;
          href?: string;
          image?: string;
          location?:
            | string
            | {
                lat: number;
                lon: number;
                name?: string;
              };
          sensitive?: boolean;
          source?:
            | string
            | {
                content: string;
                mediaType?: string;
              };
          startTime?: unknown;
          summary?: string;
          tags?: string[];
          title?: string;
          /** @enum {string} */
          type?: 'Note' | 'Article';
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminPostsByIdRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminRecommendations: {
    parameters: {
      query?: {
        refType?: 'Post' | 'Circle' | 'Group' | 'Bookmark' | 'Page';
        section?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Recommendation'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminRecommendations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default  */
          note?: string;
          /** @default 0 */
          order?: number;
          ref: string;
          section: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminRecommendationsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminRecommendationsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminRecommendationsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          active?: boolean;
          note?: string;
          order?: number;
          section?: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminRecommendationsByIdRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSections: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Section'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminSections: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default true */
          active?: boolean;
          name: string;
          /** @default 0 */
          order?: number;
          /** @default  */
          summary?: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSectionsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminSectionsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminSectionsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          active?: boolean;
          name?: string;
          order?: number;
          summary?: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminSectionsByIdRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminServers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['KnownServer'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminServersByDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminServersByDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        domain: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          blocked: boolean;
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            settings: components['schemas']['Setting'][];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSettingsByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchAdminSettingsByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSystem: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SystemStats'];
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSystemAdmins: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            members: components['schemas']['Member'][];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminSystemAdmins: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          userId: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminSystemAdminsByUserId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        userId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSystemLogs: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            lines: string[];
            total: number;
            warning?: string;
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminSystemMods: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            members: components['schemas']['Member'][];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminSystemMods: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          userId: string;
        };
      };
    };
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminSystemModsByUserId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        userId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminUsers: {
    parameters: {
      query?: {
        active?: 'true' | 'false';
        deleted?: 'true' | 'include' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['AdminUser'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminUsersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteAdminUsersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAdminUsersByIdRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAdminWhoami: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            user: {
              id: string;
              isModerator: boolean;
              isServerAdmin: boolean;
              username: string;
            };
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getApActor: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getApObjectsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getApUsersByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getApUsersByNameFollowers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getApUsersByNameFollowing: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getApUsersByNameOutbox: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAuthForgotPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAuthLogin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            token: string;
            user: components['schemas']['SessionUser'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAuthMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            user: components['schemas']['SessionUser'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAuthResendVerification: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postAuthResetPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getAuthVerifyEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getBookmarks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getBookmarksById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            item: components['schemas']['Bookmark'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getCircles: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Circle'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getCirclesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            item: components['schemas']['Circle'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getCirclesByIdMembers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Member'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getCirclesByIdPosts: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            nextCursor?: string;
            orderedItems: components['schemas']['Post'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchCirclesByIdSeen: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getConfigJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServerConfig'];
        };
      };
      default: components['responses']['Error'];
    };
  };
  getFiles: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postFiles: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': Record<string, never>;
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            file: components['schemas']['UploadedFile'];
            /** @constant */
            ok: true;
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getFilesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          '*/*': string;
        };
      };
      default: components['responses']['Error'];
    };
  };
  deleteFilesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  patchFilesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            file: components['schemas']['UploadedFile'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getFilesByIdMeta: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getFilesByIdPreview: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          '*/*': string;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getGroups: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Group'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            item: components['schemas']['Group'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postGroupsByIdInbox: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getGroupsByIdMembers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Member'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getGroupsByIdPending: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Member'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getGroupsByIdPosts: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Post'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every critical dependency answers */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            engine?: 'sqlite' | 'mongodb';
            message?: string;
            services: {
              [key: string]: string;
            };
            /** @enum {string} */
            status: 'ok' | 'error';
            timestamp: string;
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postInbox: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getInvitesByCode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        code: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getNodeinfo20: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getNodeinfo21: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getNotifications: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Notification'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postNotificationsByNotifIdDismiss: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        notifId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postNotificationsByNotifIdRead: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        notifId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postNotificationsByNotifIdUnread: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        notifId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postNotificationsReadAll: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getNotificationsStream: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getNotificationsUnreadCount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            count: number;
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getOutbox: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postOutbox: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            activity: {
              [key: string]: unknown;
            };
            createdId?: string;
            /** @constant */
            ok: true;
            result: {
              id: string;
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getPages: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Page'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getPagesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getPosts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Post'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getPostsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Post'];
        };
      };
      default: components['responses']['Error'];
    };
  };
  getPostsByIdReacts: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['React'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getPostsByIdReplies: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Reply'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getPreview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getProfile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getRecommendations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['DiscoverShelf'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postRegister: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          acknowledgedRules?: string[];
          /** Format: email */
          email?: string;
          inviteCode?: string;
          password: string;
          profile?: {
            description?: string;
            name?: string;
          };
          username: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                token: string;
                user: components['schemas']['SessionUser'];
              }
            | {
                message: string;
                /** @constant */
                requiresVerification: true;
              };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getSearch: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            item: components['schemas']['UserDetail'];
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdActivities: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdBookmarks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Bookmark'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdCircles: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Circle'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdGroups: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Group'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postUsersByIdInbox: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdNotifications: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Notification'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  postUsersByIdNotificationsByNotifIdDismiss: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        notifId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postUsersByIdNotificationsByNotifIdRead: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        notifId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postUsersByIdNotificationsByNotifIdUnread: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        notifId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  postUsersByIdNotificationsReadAll: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdNotificationsStream: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (body not described) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdNotificationsUnreadCount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            count: number;
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
  getUsersByIdPosts: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            currentPage?: number;
            orderedItems: components['schemas']['Post'][];
            totalItems: number;
            totalPages?: number;
            /** @enum {string} */
            type: 'OrderedCollection' | 'OrderedCollectionPage';
          };
        };
      };
      default: components['responses']['Error'];
    };
  };
}
