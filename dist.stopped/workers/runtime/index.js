export async function bootRuntime(kind, options) {
    if (kind === 'modern')
        return (await import('./modern.js')).bootModern(options);
    return (await import('./legacy.js')).bootLegacy(options);
}
