/** The English catalogue: the app's screens (app.ts) and the admin dashboard (admin.ts). */
import { admin } from './admin';
import { app } from './app';

export const en = { ...app, admin };

/** The shape every other catalogue has: the same keys, each a string. */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Catalogue = Shape<typeof en>;
