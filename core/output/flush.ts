/** Work deferred to the end of a run (writing caches), so that it never delays or alters a report. */
const pending: Array<() => void> = [];

export function onFlush(task: () => void): void {
  pending.push(task);
}

export function flushCaches(): void {
  for (const task of pending.splice(0)) task();
}
