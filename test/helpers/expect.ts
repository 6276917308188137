/*
 * Jest's asymmetric matchers and supertest's bodies are typed `any`; these name them as what
 * they are, so tests assert with them without passing `any` around.
 */

export const anyString = (): unknown => expect.any(String) as unknown;
export const anyNumber = (): unknown => expect.any(Number) as unknown;
/** A string matching a pattern, or containing a text. */
export const matching = (pattern: RegExp | string): unknown => (typeof pattern === 'string' ? expect.stringContaining(pattern) : expect.stringMatching(pattern)) as unknown;
export const containing = (shape: object): unknown => expect.objectContaining(shape) as unknown;

/** A JSON body as the type the test expects it to have (it checks the shape itself). */
export const bodyOf = <T>(res: { body: unknown }): T => res.body as T;
