import express, { Router, type Request, type RequestHandler } from 'express';
import { parseOlderThan, type ReanalyseProgress, type ReanalyseService } from '../../analysis/reanalyse.service';
import { AppError } from '../../core/errors';
import { adminOnly } from '../auth';
import { sendPrivate } from './private.answer';
import { parse, parseBody, reanalyseBody, reanalyseJobPath } from './rest.params';

/** A re-analysis request is two fields. */
const MAX_BODY = '4kb';

const restProgress = (id: string, p: ReanalyseProgress) => ({ id, ...p });

/**
 * Operator routes (admin keys only; a read key is refused FORBIDDEN). A re-analysis runs in the
 * background of the server that was asked: POST answers 202 with its job, GET its progress.
 */
export function adminRoutes(services: { reanalyse: ReanalyseService }, gate: RequestHandler): Router {
  const router = Router();
  const json = express.json({ limit: MAX_BODY });

  router.post('/api/admin/reanalyse', gate, adminOnly('re-analysing'), json, async (req: Request, res) => {
    const body = parseBody(reanalyseBody, req.body ?? {}, '{olderThan?, dryRun?}');
    const olderThan = body.olderThan === undefined ? undefined : parseOlderThan(body.olderThan);
    const job = services.reanalyse.start({ ...(olderThan !== undefined ? { olderThan } : {}), dryRun: body.dryRun === true });
    res.location(`/api/admin/reanalyse/${job.id}`);
    sendPrivate(res, 202, { ...restProgress(job.id, job.progress), started: job.started });
  });

  router.get('/api/admin/reanalyse/:id', gate, adminOnly('re-analysing'), async (req: Request<{ id: string }>, res) => {
    const { id } = parse(reanalyseJobPath, req.params);
    const progress = services.reanalyse.job(id);
    if (!progress) throw new AppError('NOT_FOUND', `no re-analysis ${id} on this server (jobs live in the server that runs them, the last 10 finished ones kept)`);
    sendPrivate(res, 200, restProgress(id, progress));
  });

  return router;
}
