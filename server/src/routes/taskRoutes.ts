import { taskListQuerySchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readQuery } from '../http/input.js';
import type { TaskService } from '../services/fs/tasks/taskService.js';

/** /api/fs/tasks: the caller's tasks (the admin: everyone's). docs/api/fs-tasks.md. */
export function taskRoutes(deps: { tasks: TaskService; guard: Guard }) {
  const { tasks, guard } = deps;
  return new Hono<AppEnv>()
    .get('/', async (c) => ok(c, await tasks.list(await guard.authenticated(c), readQuery(c, taskListQuerySchema))))
    .delete('/completed', async (c) => {
      const result = await tasks.clearCompleted(await guard.authenticated(c));
      return ok(c, result, { message: `${result.cleared} completed task(s) cleared` });
    })
    .get('/:id', async (c) => ok(c, await tasks.get(await guard.authenticated(c), c.req.param('id'))))
    .post('/:id/cancel', async (c) => {
      const task = await tasks.cancel(await guard.authenticated(c), c.req.param('id'));
      return ok(c, task, { message: 'task cancelled' });
    })
    .post('/:id/retry', async (c) => {
      const task = await tasks.retry(await guard.authenticated(c), c.req.param('id'));
      return ok(c, task, { status: 202, message: 'task restarted' });
    });
}
