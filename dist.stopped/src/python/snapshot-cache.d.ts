export declare class SnapshotCache {
    private readonly dir;
    private readonly log;
    readonly key: string;
    /** Set once the directory was found untrustworthy: snapshots are then off for this cache. */
    private dirRefused;
    /**
     * @param dir where snapshots live (created on demand)
     * @param identity the inputs that make two snapshots interchangeable (e.g. pyodide version, harness source)
     */
    constructor(dir: string, identity: string[], log: (message: string) => void);
    private get file();
    /** The snapshot bytes in shared memory (so every worker reads the same copy), or null if none is valid. */
    load(): Uint8Array | null;
    /**
     * Writes a snapshot atomically (temp file + rename, mode 0600), checksum last so a half-written pair is
     * never valid.
     */
    store(data: Uint8Array): void;
    /**
     * Creates the directory (mode 0700) when asked, and checks that only this user can write it. Says why
     * once and turns snapshots off when not; a missing directory when not creating is simply empty.
     */
    private usableDir;
    /**
     * The bytes of one of this cache's files, or null when it is missing or not trustworthy (then it is
     * deleted, with the rest of the pair, and rebuilt). Checked and read through one handle, without
     * following a symlink.
     */
    private readOwn;
    /** Removes the snapshot (e.g. after a worker failed to boot from it). */
    discard(): void;
}
