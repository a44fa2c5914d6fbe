/** Declarations of test/lts/node.mjs, a plain script CI runs before anything is built. */
export interface NodeRelease {
  version: string;
  integrity: string;
}
export declare const NODE_RELEASES: { lts: NodeRelease; oldest: NodeRelease };
export declare function nodeBinary(prefix: string): string;
export declare function installNode(release: NodeRelease, prefix: string): { binary: string; problem?: undefined } | { problem: string; binary?: undefined };
