/**
 * The part of the nbformat 4.5 notebook schema that export_notebook's output has to satisfy, written from the
 * nbformat documentation (https://nbformat.readthedocs.io/en/latest/format_description.html) and its published JSON
 * schema (nbformat/v4/nbformat.v4.5.schema.json), in JSON Schema draft-07 for ajv. Covered: the top level, code and
 * markdown cells (cell ids required since 4.5), and the four output types with their mime bundles. Left out:
 * raw cells, attachments and the optional metadata keys export_notebook never writes.
 */
const multilineString = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };
const mimebundle = {
    type: 'object',
    // JSON mime types may hold any value; every other one is text (a string or a list of lines).
    patternProperties: { '^application/(.*\\+)?json$': {} },
    additionalProperties: multilineString,
};
const outputMetadata = { type: 'object' };
const executionCount = { type: ['integer', 'null'], minimum: 0 };
const cellId = { type: 'string', pattern: '^[a-zA-Z0-9-_]+$', minLength: 1, maxLength: 64 };
export const NBFORMAT_V4_5_SCHEMA = {
    type: 'object',
    additionalProperties: false,
    required: ['metadata', 'nbformat_minor', 'nbformat', 'cells'],
    properties: {
        metadata: {
            type: 'object',
            properties: {
                kernelspec: {
                    type: 'object',
                    required: ['name', 'display_name'],
                    properties: { name: { type: 'string' }, display_name: { type: 'string' } },
                },
                language_info: {
                    type: 'object',
                    required: ['name'],
                    properties: {
                        name: { type: 'string' },
                        file_extension: { type: 'string' },
                        mimetype: { type: 'string' },
                    },
                },
            },
        },
        nbformat_minor: { type: 'integer', minimum: 5 },
        nbformat: { type: 'integer', minimum: 4, maximum: 4 },
        cells: { type: 'array', items: { $ref: '#/definitions/cell' } },
    },
    definitions: {
        cell: { type: 'object', oneOf: [{ $ref: '#/definitions/markdown_cell' }, { $ref: '#/definitions/code_cell' }] },
        markdown_cell: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'cell_type', 'metadata', 'source'],
            properties: { id: cellId, cell_type: { enum: ['markdown'] }, metadata: { type: 'object' }, source: multilineString },
        },
        code_cell: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'cell_type', 'metadata', 'source', 'outputs', 'execution_count'],
            properties: {
                id: cellId,
                cell_type: { enum: ['code'] },
                metadata: { type: 'object' },
                source: multilineString,
                outputs: { type: 'array', items: { $ref: '#/definitions/output' } },
                execution_count: executionCount,
            },
        },
        output: {
            type: 'object',
            oneOf: [
                { $ref: '#/definitions/execute_result' },
                { $ref: '#/definitions/display_data' },
                { $ref: '#/definitions/stream' },
                { $ref: '#/definitions/error' },
            ],
        },
        execute_result: {
            type: 'object',
            additionalProperties: false,
            required: ['output_type', 'data', 'metadata', 'execution_count'],
            properties: {
                output_type: { enum: ['execute_result'] },
                execution_count: executionCount,
                data: mimebundle,
                metadata: outputMetadata,
            },
        },
        display_data: {
            type: 'object',
            additionalProperties: false,
            required: ['output_type', 'data', 'metadata'],
            properties: { output_type: { enum: ['display_data'] }, data: mimebundle, metadata: outputMetadata },
        },
        stream: {
            type: 'object',
            additionalProperties: false,
            required: ['output_type', 'name', 'text'],
            properties: { output_type: { enum: ['stream'] }, name: { type: 'string' }, text: multilineString },
        },
        error: {
            type: 'object',
            additionalProperties: false,
            required: ['output_type', 'ename', 'evalue', 'traceback'],
            properties: {
                output_type: { enum: ['error'] },
                ename: { type: 'string' },
                evalue: { type: 'string' },
                traceback: { type: 'array', items: { type: 'string' } },
            },
        },
    },
};
