import { linksRouter } from './router/links.ts';
import { statsRouter } from './router/stats.ts';
import { tagsRouter } from './router/tags.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  links: linksRouter,
  tags: tagsRouter,
  stats: statsRouter,
});

export type AppRouter = typeof appRouter;
