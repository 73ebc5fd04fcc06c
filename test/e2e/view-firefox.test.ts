/** The browser view's main scenarios (view-scenarios.ts) in Firefox ESR, over --http. */
import { describe } from 'node:test';
import { FIREFOX } from '../browsers.js';
import { viewOverHttp } from './view-scenarios.js';

describe(`browser view over --http, in ${FIREFOX.name}`, { skip: FIREFOX.skip }, viewOverHttp(FIREFOX));
