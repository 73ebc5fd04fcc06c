export declare const NBFORMAT_V4_5_SCHEMA: {
    readonly type: "object";
    readonly additionalProperties: false;
    readonly required: readonly ["metadata", "nbformat_minor", "nbformat", "cells"];
    readonly properties: {
        readonly metadata: {
            readonly type: "object";
            readonly properties: {
                readonly kernelspec: {
                    readonly type: "object";
                    readonly required: readonly ["name", "display_name"];
                    readonly properties: {
                        readonly name: {
                            readonly type: "string";
                        };
                        readonly display_name: {
                            readonly type: "string";
                        };
                    };
                };
                readonly language_info: {
                    readonly type: "object";
                    readonly required: readonly ["name"];
                    readonly properties: {
                        readonly name: {
                            readonly type: "string";
                        };
                        readonly file_extension: {
                            readonly type: "string";
                        };
                        readonly mimetype: {
                            readonly type: "string";
                        };
                    };
                };
            };
        };
        readonly nbformat_minor: {
            readonly type: "integer";
            readonly minimum: 5;
        };
        readonly nbformat: {
            readonly type: "integer";
            readonly minimum: 4;
            readonly maximum: 4;
        };
        readonly cells: {
            readonly type: "array";
            readonly items: {
                readonly $ref: "#/definitions/cell";
            };
        };
    };
    readonly definitions: {
        readonly cell: {
            readonly type: "object";
            readonly oneOf: readonly [{
                readonly $ref: "#/definitions/markdown_cell";
            }, {
                readonly $ref: "#/definitions/code_cell";
            }];
        };
        readonly markdown_cell: {
            readonly type: "object";
            readonly additionalProperties: false;
            readonly required: readonly ["id", "cell_type", "metadata", "source"];
            readonly properties: {
                readonly id: {
                    type: string;
                    pattern: string;
                    minLength: number;
                    maxLength: number;
                };
                readonly cell_type: {
                    readonly enum: readonly ["markdown"];
                };
                readonly metadata: {
                    readonly type: "object";
                };
                readonly source: {
                    anyOf: ({
                        type: string;
                        items?: undefined;
                    } | {
                        type: string;
                        items: {
                            type: string;
                        };
                    })[];
                };
            };
        };
        readonly code_cell: {
            readonly type: "object";
            readonly additionalProperties: false;
            readonly required: readonly ["id", "cell_type", "metadata", "source", "outputs", "execution_count"];
            readonly properties: {
                readonly id: {
                    type: string;
                    pattern: string;
                    minLength: number;
                    maxLength: number;
                };
                readonly cell_type: {
                    readonly enum: readonly ["code"];
                };
                readonly metadata: {
                    readonly type: "object";
                };
                readonly source: {
                    anyOf: ({
                        type: string;
                        items?: undefined;
                    } | {
                        type: string;
                        items: {
                            type: string;
                        };
                    })[];
                };
                readonly outputs: {
                    readonly type: "array";
                    readonly items: {
                        readonly $ref: "#/definitions/output";
                    };
                };
                readonly execution_count: {
                    type: string[];
                    minimum: number;
                };
            };
        };
        readonly output: {
            readonly type: "object";
            readonly oneOf: readonly [{
                readonly $ref: "#/definitions/execute_result";
            }, {
                readonly $ref: "#/definitions/display_data";
            }, {
                readonly $ref: "#/definitions/stream";
            }, {
                readonly $ref: "#/definitions/error";
            }];
        };
        readonly execute_result: {
            readonly type: "object";
            readonly additionalProperties: false;
            readonly required: readonly ["output_type", "data", "metadata", "execution_count"];
            readonly properties: {
                readonly output_type: {
                    readonly enum: readonly ["execute_result"];
                };
                readonly execution_count: {
                    type: string[];
                    minimum: number;
                };
                readonly data: {
                    type: string;
                    patternProperties: {
                        '^application/(.*\\+)?json$': {};
                    };
                    additionalProperties: {
                        anyOf: ({
                            type: string;
                            items?: undefined;
                        } | {
                            type: string;
                            items: {
                                type: string;
                            };
                        })[];
                    };
                };
                readonly metadata: {
                    type: string;
                };
            };
        };
        readonly display_data: {
            readonly type: "object";
            readonly additionalProperties: false;
            readonly required: readonly ["output_type", "data", "metadata"];
            readonly properties: {
                readonly output_type: {
                    readonly enum: readonly ["display_data"];
                };
                readonly data: {
                    type: string;
                    patternProperties: {
                        '^application/(.*\\+)?json$': {};
                    };
                    additionalProperties: {
                        anyOf: ({
                            type: string;
                            items?: undefined;
                        } | {
                            type: string;
                            items: {
                                type: string;
                            };
                        })[];
                    };
                };
                readonly metadata: {
                    type: string;
                };
            };
        };
        readonly stream: {
            readonly type: "object";
            readonly additionalProperties: false;
            readonly required: readonly ["output_type", "name", "text"];
            readonly properties: {
                readonly output_type: {
                    readonly enum: readonly ["stream"];
                };
                readonly name: {
                    readonly type: "string";
                };
                readonly text: {
                    anyOf: ({
                        type: string;
                        items?: undefined;
                    } | {
                        type: string;
                        items: {
                            type: string;
                        };
                    })[];
                };
            };
        };
        readonly error: {
            readonly type: "object";
            readonly additionalProperties: false;
            readonly required: readonly ["output_type", "ename", "evalue", "traceback"];
            readonly properties: {
                readonly output_type: {
                    readonly enum: readonly ["error"];
                };
                readonly ename: {
                    readonly type: "string";
                };
                readonly evalue: {
                    readonly type: "string";
                };
                readonly traceback: {
                    readonly type: "array";
                    readonly items: {
                        readonly type: "string";
                    };
                };
            };
        };
    };
};
