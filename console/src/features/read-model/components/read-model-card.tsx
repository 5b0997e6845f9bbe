import type { ReadModelFailure, ReadModelJob } from '@storage/contracts/read-model';
import { ApiError, serverMessage } from '@storage/web-client/api';
import { Alert, Button, Card, Flex, Popconfirm, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { type ReadModelJobStart, useReadModelFailures, useReadModelJob, useStartReadModelJob } from '../api/read-model-jobs.ts';

const jobNames: Record<ReadModelJobStart['kind'], string> = { rebuild: 'Rebuild', verify: 'Verification' };

function JobStatus({ job }: { job: ReadModelJob }) {
  const name = job.projection ? `Rebuild of ${job.projection}` : jobNames[job.kind];
  if (job.state === 'failed') return <Alert type="error" showIcon title={`${name} failed: ${job.error ?? ''}`} />;
  if (job.state !== 'completed') {
    return (
      <Alert type="info" showIcon title={`${name} ${job.state === 'active' ? 'running' : 'waiting'}: ${job.eventsApplied.toLocaleString()} events applied`} />
    );
  }
  if (job.kind === 'rebuild') {
    const what = job.projection ? `The ${job.projection} projection` : 'Read model';
    return <Alert type="success" showIcon title={`${what} rebuilt from ${job.eventsApplied.toLocaleString()} events`} />;
  }
  const differences = job.result?.differences;
  if (!differences) return <Alert type="error" showIcon title="Verification finished without a result; run it again" />;
  if (differences.length === 0) {
    return <Alert type="success" showIcon title={`The read model matches a rebuild from ${job.eventsApplied.toLocaleString()} events`} />;
  }
  return (
    <Alert
      type="warning"
      showIcon
      title={`${differences.length} ${differences.length === 1 ? 'difference' : 'differences'} from a rebuild`}
      description={
        <ul style={{ margin: 0, paddingLeft: 16, maxHeight: 240, overflow: 'auto' }} data-testid="read-model-differences">
          {differences.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      }
    />
  );
}

/**
 * A projection failing on an event: the event, the error, the attempts and what it holds, and the
 * rebuild of its tables alone that repairs it once a release has fixed the cause.
 */
function FailureStatus({ failure, onRebuild, disabled }: { failure: ReadModelFailure; onRebuild: () => void; disabled: boolean }) {
  const held = failure.holds.length > 0 ? `Holds ${failure.holds.join(', ')} at the same event; the others go on.` : 'Holds no other projection.';
  return (
    <Alert
      type="error"
      showIcon
      data-testid="read-model-failure"
      title={`The ${failure.projection} projection fails on event ${failure.eventId} (${failure.eventType} at ${failure.position})`}
      description={
        <Flex vertical gap={4}>
          <Typography.Text code>{failure.error}</Typography.Text>
          <Typography.Text>
            {failure.attempts} {failure.attempts === 1 ? 'attempt' : 'attempts'} since {new Date(failure.failingSince).toLocaleString()}; next at{' '}
            {new Date(failure.nextAttemptAt).toLocaleString()}. {held}
          </Typography.Text>
        </Flex>
      }
      action={
        <Popconfirm title={`Rebuild the ${failure.projection} projection from the full history?`} onConfirm={onRebuild} disabled={disabled}>
          <Button danger disabled={disabled}>
            Rebuild {failure.projection}
          </Button>
        </Popconfirm>
      }
    />
  );
}

/** Owners rebuild the read tables from the event history, or check them against a rebuild. */
/** The last job started here, kept for the browser tab so a reload still follows it. */
const JOB_KEY = 'read-model-job';

export function ReadModelCard() {
  const [jobId, setJobId] = useState<string | null>(() => sessionStorage.getItem(JOB_KEY));
  const start = useStartReadModelJob();
  const job = useReadModelJob(jobId);
  const failures = useReadModelFailures();
  const finished = job.data?.state === 'completed' || job.data?.state === 'failed';
  // A rebuild clears the failures of what it rebuilt: asked for again as soon as it is done.
  useEffect(() => {
    if (finished) void failures.refetch();
  }, [finished, failures.refetch]);
  // A job kept from before a reload that the queue has since forgotten is simply not shown.
  const forgotten = job.error instanceof ApiError && job.error.status === 404;
  useEffect(() => {
    if (!forgotten) return;
    sessionStorage.removeItem(JOB_KEY);
    setJobId(null);
  }, [forgotten]);
  // Until the new job's first status arrives it counts as running, so it cannot be started twice.
  const awaitingStatus = jobId !== null && job.data === undefined && !job.isError;
  const running = start.isPending || awaitingStatus || (job.data !== undefined && (job.data.state === 'waiting' || job.data.state === 'active'));
  const run = (kind: ReadModelJobStart['kind'], projection?: string) =>
    start.mutate(projection === undefined ? { kind } : { kind, projection }, {
      onSuccess: (started) => {
        sessionStorage.setItem(JOB_KEY, started.id);
        setJobId(started.id);
      },
    });

  return (
    <Card title="Read model" data-testid="read-model-card">
      <Typography.Paragraph type="secondary">
        The screens read tables built from the event history. Verify compares them with a fresh rebuild, row by row; Rebuild replaces them with one while the
        product keeps answering.
      </Typography.Paragraph>
      <Flex vertical gap={12}>
        <Flex gap={8}>
          <Button onClick={() => run('verify')} disabled={running}>
            Verify
          </Button>
          <Popconfirm title="Rebuild the read model from the full history?" onConfirm={() => run('rebuild')} disabled={running}>
            <Button type="primary" disabled={running}>
              Rebuild
            </Button>
          </Popconfirm>
        </Flex>
        {failures.data?.map((failure) => (
          <FailureStatus key={failure.projection} failure={failure} onRebuild={() => run('rebuild', failure.projection)} disabled={running} />
        ))}
        {start.isError && <Alert type="error" showIcon title={serverMessage(start.error)} />}
        {job.isError && !forgotten && <Alert type="error" showIcon title={serverMessage(job.error)} />}
        {job.data && <JobStatus job={job.data} />}
      </Flex>
    </Card>
  );
}
