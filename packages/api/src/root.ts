import { linksRouter } from './router/links.ts';
import { statsRouter } from './router/stats.ts';
import { tagsRouter } from './router/tags.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  links: linksRouter,
  tags: tagsRouter,
  stats: statsRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process, as a transport that serves a procedure itself does (REST's streamed files). */
export const createCaller = createCallerFactory(appRouter);
