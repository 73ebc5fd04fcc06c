/**
 * The page's assets (plain JavaScript and CSS in the package's view/ folder, no build step, no CDN): read once,
 * served from memory under /view/assets/<name>.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';

const TYPES: Record<string, string> = { 'view.js': 'text/javascript; charset=utf-8', 'view.css': 'text/css; charset=utf-8' };
let loaded: Map<string, { type: string; body: Buffer }> | null = null;

/** The asset of that name, or null (only the files listed in TYPES are served). */
export function viewAsset(name: string): { type: string; body: Buffer } | null {
  loaded ??= new Map(Object.entries(TYPES).map(([file, type]) => [file, { type, body: readFileSync(join(PACKAGE_ROOT, 'view', file)) }]));
  return loaded.get(name) ?? null;
}

/** The page's size in bytes (its assets), as the README states it. */
export function viewAssetBytes(): number {
  return Object.keys(TYPES).reduce((sum, name) => sum + viewAsset(name)!.body.byteLength, 0);
}
