/** The structured reply of a cell (execute_code, run_file, call_function, a registered tool), as a zod shape and a type. */
import { z } from 'zod';
import { TRUNCATABLE } from '../wire/contract.js';
import { fileRefSchema } from '../sessions/file-index.js';
import { countField, orNull, packageFailureField } from './tools/fields.js';
import { notebookRunShape } from './notebook-cells.js';

export const executionOutputShape = {
  session_id: z.string().describe('The session the code ran in (new if none was given)'),
  success: z.boolean().describe('False when the code raised, timed out or was cancelled'),
  stdout: z.string(),
  stderr: z.string(),
  result: orNull(z.string(), 'repr() of the last expression, like a notebook cell, or null'),
  error: z.object({ type: z.string(), message: z.string(), traceback: z.string() }).nullable(),
  execution_count: countField('Number of this cell in the session'),
  duration_ms: z.number(),
  files: z.array(fileRefSchema),
  truncated: z
    .partialRecord(z.enum([...TRUNCATABLE, 'files', 'notebook']), z.number())
    .nullable()
    .describe('Characters (display: items; files: entries) left out of each capped field, or null when nothing was cut'),
  display: z
    .array(z.object({ mime_type: z.string(), path: z.string().optional(), uri: z.string().optional(), text: z.string().optional() }))
    .describe('Figures and rich outputs (IPython display protocol) in the order shown; images are also returned as image blocks'),
  loaded_packages: z.array(z.string()).describe('Offline packages loaded automatically because the code imports them'),
  failed_packages: z
    .array(packageFailureField)
    .describe(
      'Offline packages that failed to load before the code ran (those it imports, and those its %pip lines name), with why; never in loaded_packages',
    ),
  restored: z
    .object({
      cells: z.number().describe('Cells replayed'),
      failed: z.array(z.number()).describe('Numbers of the replayed cells that raised'),
      skipped: z.array(z.number()).describe('Numbers of the cells not replayed: interrupted before the restart'),
      dropped: z.number().describe('Older cells beyond --max-history-cells or --max-history-bytes, not replayed'),
      unread: z
        .array(z.string())
        .describe(
          'Parts of the saved cell log that could not be read (torn or corrupt lines, an unreadable log), with why; their cells were not replayed',
        ),
      files: z.number().describe('Workspace files copied back'),
      skipped_files: z.array(z.string()).describe('Files that could not be copied back'),
    })
    .optional()
    .describe('Present when this call first restored its session from --state-dir after a server restart'),
  notebook: notebookRunShape.optional().describe('run_file of a .ipynb: each code cell run, in order (src/server/notebook-run.ts)'),
};

/** execute_code's structured reply; also what the library's session.execute() resolves to (the public result type). */
export type ExecutionResult = z.infer<z.ZodObject<typeof executionOutputShape>>;

/** The same shape as the object schema a tool declares (the SDK's v2 takes schemas, not raw shapes). */
export const executionOutputSchema = z.object(executionOutputShape);
