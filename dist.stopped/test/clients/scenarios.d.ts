/** The frameworks' packages need Node.js 22+ (their `engines`); on older lines the suite is skipped, not failed. */
export declare const SKIP: string | false;
/**
 * Command and arguments that start the built server, as a framework's stdio client would, on this same Node.
 * No warm pool: each framework's run takes two sessions (a scientific legacy session boots in 10–17 s) and a pool
 * would boot a third for nothing at every take; a session booted on demand costs the same wait.
 */
export declare function serverCommand(...flags: string[]): {
    command: string;
    args: string[];
};
/** The environment given to the server: just PATH (the frameworks' clients pass a minimal one by default too). */
export declare const serverEnv: Record<string, string>;
/** One tool result as the framework hands it to its model: text parts, image parts, and whether it is an error. */
export interface SeenResult {
    /** Text parts in order (an error result's message too). */
    texts: string[];
    /** Image parts: media type and base64 data. */
    images: {
        mediaType: string;
        data: string;
    }[];
    /** What the framework produced before normalising, for assertion messages. */
    raw: unknown;
}
/** A tool call the scripted model makes. */
export interface ToolCall {
    name: string;
    args: Record<string, unknown>;
}
/** One turn of a script: the next tool call, decided from the previous result as the model saw it. */
export type Step = (previous: SeenResult | undefined) => ToolCall;
/** What each framework's test provides to the shared scenarios. */
export interface ClientUnderTest {
    /**
     * Runs the framework's agent loop with its scripted model making `steps`' calls, one per turn, and returns each
     * tool result as the model received it (in the framework's own model input), in order.
     */
    run(steps: Step[]): Promise<SeenResult[]>;
}
/** All text the model read for a result. */
export declare function textOf(seen: SeenResult): string;
/** The session id a model would read from a result's text (the first one; a result names one session). */
export declare function sessionIdIn(seen: SeenResult | undefined): string;
/** A short view of a result for assertion messages (base64 runs shortened). */
export declare function preview(seen: SeenResult): string;
/** Asserts that a result reached the model with a PNG image part, and not as base64 text. */
export declare function assertPngSeen(seen: SeenResult): void;
/** A plot that matplotlib (preloaded by default) captures as one PNG figure. */
export declare const PLOT = "import matplotlib.pyplot as plt\nplt.plot([1, 4, 9, 16])\nplt.title(\"squares\")\nplt.show()";
/**
 * Registers the scenarios every framework must pass, as tests of the enclosing describe(). They share one session
 * (besides the one the null-optionals test starts), so that a framework's run boots only two; framework-specific
 * tests registered after them can continue in it through `sharedSession`.
 */
export declare function scenarioTests(client: () => ClientUnderTest): {
    sharedSession: () => string;
};
