/**
 * What is worked out once per corpus model from the model alone (an index of documents, a registry
 * read and validated, the compiled schemas, the OpenAPI view): a named service, built on first
 * use by `corpus.service(Service)` and kept with that model, so that every gate, generator and
 * editor feature that asks gets the same value and a new model (an edit in the editor, a fix pass)
 * builds its own. A service reads only the model: no file system, no clock.
 */
import type { Corpus } from './corpus.js';

export interface Service<T> {
  /** What it is, in words, for a message (a service that asks for itself while it is being built). */
  readonly name: string;
  /** Builds the value from the model; called at most once per corpus (again if it threw). */
  readonly build: (corpus: Corpus) => T;
}

/** A service: `export const DocumentIndex = defineService('document index', (corpus) => …)`, read with `corpus.service(DocumentIndex)`. */
export function defineService<T>(name: string, build: (corpus: Corpus) => T): Service<T> {
  return Object.freeze({ name, build });
}

/** The values built so far for one corpus, by service. */
export class ServiceTable {
  private readonly built = new Map<Service<unknown>, unknown>();
  private readonly building = new Set<Service<unknown>>();

  get<T>(corpus: Corpus, service: Service<T>): T {
    if (this.built.has(service)) return this.built.get(service) as T;
    if (this.building.has(service)) throw new Error(`the ${service.name} asks for itself while it is being built`);
    this.building.add(service);
    try {
      const value = service.build(corpus);
      this.built.set(service, value);
      return value;
    } finally {
      this.building.delete(service);
    }
  }
}
