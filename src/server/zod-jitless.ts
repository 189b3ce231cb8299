// Imported first by the child entry (child-main.ts), before any schema is built: zod 4 compiles a fast
// parser (new Function) for each object schema on its first parse. The service parses its options
// and workspace once, at start, and never a request (params.ts reads those by hand), so that
// compilation was pure start-up cost: about a tenth of the child's CPU to ready.
import { z } from 'zod';

z.config({ jitless: true });
