import { linksRouter } from './router/links.ts';
import { tagsRouter } from './router/tags.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  links: linksRouter,
  tags: tagsRouter,
});

export type AppRouter = typeof appRouter;
