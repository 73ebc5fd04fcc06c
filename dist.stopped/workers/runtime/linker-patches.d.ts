/** pyodide.asm.js with the three changes (see the file comment). */
export declare function withLinkerPatches(source: string): string;
