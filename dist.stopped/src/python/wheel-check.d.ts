import type { Lockfile } from './distribution.js';
/** A directory the server looks for wheels in. */
export interface WheelDir {
    path: string;
    /** The per-user cache: the directory and each file must be this user's and writable by no one else. */
    private: boolean;
}
/** What a directory holds that can be loaded, and what was refused there and why. */
export interface WheelDirCheck {
    dir: WheelDir;
    /** File names present and matching the lock's sha256. */
    verified: Set<string>;
    /** One line per refused file or directory. */
    refused: string[];
}
/** Checks every lock wheel present in `dir` (ownership and mode too for a private directory). Never throws. */
export declare function checkWheelDir(dir: WheelDir, lock: Lockfile): WheelDirCheck;
