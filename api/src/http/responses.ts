import { NEXT_CURSOR_HEADER, PREV_CURSOR_HEADER, TOTAL_CAPPED_HEADER, TOTAL_COUNT_HEADER, TOTAL_ESTIMATED_HEADER } from '@storage/contracts/paging';
import { z } from 'zod';

// What routes declare they answer, for the OpenAPI document and the handlers' types. Answers are
// written as the handlers made them (see serializerCompiler in openapi.ts): a response schema
// never reshapes or refuses an answer; the generative test checks the answers against them.

/** Every 4xx and 5xx answer: the message, and the field at fault when there is one. */
export const ErrorAnswer = z
  .object({
    message: z.string().describe('What went wrong, for a person to read. Bad input names the field first: "email: is required".'),
    field: z.string().optional().describe('The field, query parameter, path parameter or header at fault, when there is one.'),
  })
  .meta({ id: 'Error' });

/** An error answer a route gives for its own reasons (the ones every route of its kind gives are added for the document). */
export const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ErrorAnswer } } });

/** A JSON answer. */
export const json = <S extends z.ZodType>(description: string, schema: S) => ({ description, content: { 'application/json': { schema } } });

/** A response header that carries a count. */
export const countHeader = (description: string) => z.string().regex(/^\d+$/).describe(description);

/** The headers of a page of a list: the number of all that match and the cursors of the pages either side (contracts/src/paging.ts). */
const pageHeaderSchemas = {
  [TOTAL_COUNT_HEADER]: countHeader(
    `How many match the filter, on every page (exact unless ${TOTAL_ESTIMATED_HEADER} or ${TOTAL_CAPPED_HEADER} says otherwise)`,
  ),
  [TOTAL_ESTIMATED_HEADER]: z.literal('true').optional().describe(`Present when ${TOTAL_COUNT_HEADER} is the planner's estimate, not a count`),
  [TOTAL_CAPPED_HEADER]: z.literal('true').optional().describe(`Present when counting stopped: at least ${TOTAL_COUNT_HEADER} match`),
  [NEXT_CURSOR_HEADER]: z.string().optional().describe('The `cursor` of the next page, when there is one'),
  [PREV_CURSOR_HEADER]: z.string().optional().describe('The `cursor` of the previous page, when there is one'),
};

/** A page of a list: a JSON array, with the paging in headers. */
export const page = <S extends z.ZodType>(description: string, item: S) => ({ ...json(description, z.array(item)), headers: pageHeaderSchemas });

/** A page of a list inside an object that also carries figures of the whole list (the rent roll), with the paging in headers. */
export const pageWithFigures = <S extends z.ZodType>(description: string, schema: S) => ({ ...json(description, schema), headers: pageHeaderSchemas });

/** An answer without a body (204, a redirect). */
export const empty = (description: string) => z.undefined().describe(description);

/** A download (CSV, PDF) or a page, written as it is produced. */
export const file = (description: string, mediaType: 'text/csv' | 'application/pdf' | 'text/html') => ({
  description,
  content: {
    [mediaType]: {
      schema: z.custom<string | Buffer | NodeJS.ReadableStream>().meta({
        type: 'string',
        ...(mediaType === 'application/pdf' ? { contentMediaType: mediaType } : {}),
      }),
    },
  },
});
