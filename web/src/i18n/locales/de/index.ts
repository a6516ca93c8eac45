/** The German catalogue: the app's screens (app.ts) and the admin dashboard (admin.ts). */
import type { Catalogue } from '../en';
import { admin } from './admin';
import { app } from './app';

export const de: Catalogue = { ...app, admin };
