/**
 * Running a cell for a tool (execute_code, run_file) and shaping its reply: progress notifications while it runs,
 * the host-side caps on every field (src/sandbox/reply-caps.ts), figures as image blocks, files as links, and the
 * whole reply fitted under --max-reply-bytes.
 */
import type { ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CellSource } from '../sessions/channel.js';
import type { Execution } from '../sessions/manager.js';
import { type ToolDeps } from './tools/shared.js';
export declare const executionOutputShape: {
    session_id: z.ZodString;
    success: z.ZodBoolean;
    stdout: z.ZodString;
    stderr: z.ZodString;
    result: z.ZodUnion<readonly [z.ZodString, z.ZodNull]>;
    error: z.ZodNullable<z.ZodObject<{
        type: z.ZodString;
        message: z.ZodString;
        traceback: z.ZodString;
    }, z.core.$strip>>;
    execution_count: z.ZodNumber;
    duration_ms: z.ZodNumber;
    files: z.ZodArray<z.ZodObject<{
        uri: z.ZodString;
        name: z.ZodString;
        path: z.ZodString;
        mime_type: z.ZodString;
        size: z.ZodNumber;
    }, z.core.$strip>>;
    truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
        error: "error";
        stdout: "stdout";
        stderr: "stderr";
        result: "result";
        traceback: "traceback";
        display: "display";
        files: "files";
    }> & z.core.$partial, z.ZodNumber>>;
    display: z.ZodArray<z.ZodObject<{
        mime_type: z.ZodString;
        path: z.ZodOptional<z.ZodString>;
        uri: z.ZodOptional<z.ZodString>;
        text: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>;
    loaded_packages: z.ZodArray<z.ZodString>;
    restored: z.ZodOptional<z.ZodObject<{
        cells: z.ZodNumber;
        failed: z.ZodArray<z.ZodNumber>;
        skipped: z.ZodArray<z.ZodNumber>;
        dropped: z.ZodNumber;
        unread: z.ZodArray<z.ZodString>;
        files: z.ZodNumber;
        skipped_files: z.ZodArray<z.ZodString>;
    }, z.core.$strip>>;
};
/** execute_code's structured reply; also what the library's session.execute() resolves to. */
export type ExecutionReply = z.infer<z.ZodObject<typeof executionOutputShape>>;
/** The `extra` argument of a tool callback, reduced to what execution needs. */
type CallExtra = Parameters<ToolCallback<undefined>>[0];
/**
 * Runs code (or a workspace file) in a session, sending progress notifications while it runs when the
 * client asked for them, and shapes the reply.
 */
export declare function runWithProgress(deps: ToolDeps, sessionId: string, source: CellSource, timeoutMs: number, extra: CallExtra, newSession?: boolean): Promise<CallToolResult>;
/**
 * Calls `tick` with the seconds elapsed every PROGRESS_EVERY_MS until the returned stop() is called. The timer is
 * unref()ed: a running cell keeps the process alive through its worker, not through its progress reports.
 */
export declare function reportProgress(tick: (elapsedSeconds: number) => void): () => void;
/** Refuses code longer than --max-code-chars, before it is queued. */
export declare function checkCodeLength(config: ToolDeps['config'], code: string): void;
/** Checks timeout_seconds against the server's limits; returns milliseconds. */
export declare function timeoutFor(config: ToolDeps['config'], timeoutSeconds: number | undefined): number;
/** An image block for a figure, or the reason it is not inline. */
type Image = {
    path: string;
    mimeType: string;
    data: string;
} | {
    path: string;
    note: string;
};
/** How a reply is shaped, beyond the execution itself. */
export interface ReplyOptions {
    maxReplyBytes: number;
    /** Add a resource_link block per file (--resource-links). */
    resourceLinks: boolean;
    /** The call started this session (no session_id given): the text says so. */
    newSession: boolean;
}
/** Shapes an execution into the tool reply: caps, interrupts explained, images inline, under maxReplyBytes. */
export declare function executionReply(sessionId: string, execution: Execution, timeoutMs: number, images: Image[], options: ReplyOptions): CallToolResult;
/** The structured reply of an execution: how it ended explained in `error` (timeout, cancel, session ended). */
export declare function shapeExecution(sessionId: string, execution: Execution, timeoutMs: number): ExecutionReply;
export {};
