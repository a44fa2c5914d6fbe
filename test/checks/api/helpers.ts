/** Shared by the api gate tests: the API base corpus every case extends, and edits of its documents. */
import type { CorpusCase, Edit } from '../../rule-tester.js';

/** The small correct API corpus (test/fixtures/api/good) that every api gate passes. */
export const API_BASE = 'api/good';
export const OPENAPI = 'api/v2/openapi.yaml';
export const ASYNCAPI = 'api/v2/asyncapi.yaml';
export const SEAMS = 'api/seams-v2.yaml';

/** The API base with `edits` applied (and `files` added, replaced or removed). */
export function api(edits: readonly Edit[], files?: CorpusCase['files']): Pick<CorpusCase, 'base' | 'edits' | 'files'> {
  return { base: API_BASE, edits, ...(files ? { files } : {}) };
}

/** One edit of the OpenAPI document of the base. */
export function openapi(find: string | RegExp, replace: string): Edit {
  return { file: OPENAPI, find, replace };
}

/** One edit of the AsyncAPI document of the base. */
export function asyncapi(find: string | RegExp, replace: string): Edit {
  return { file: ASYNCAPI, find, replace };
}

/** The base's /host/events path item (lines 124-139 of its OpenAPI document), to remove or replace. */
export const HOST_EVENTS_PATH = /  \/host\/events:\n(?: {4}.*\n)+/;
