// The client of `npm run bench:commands`: the four commands of the desk's mix over HTTP, each with
// the read that checks it, and the open loop that sends them on schedule. The benchmark runs the
// timed loads from a child process of its own (this file, forked), so that the client's requests,
// JSON and checking reads take no CPU from the process under test, as a browser's would not; the
// commands sent one at a time (the statement counts) go from the benchmark's process.

export interface Fixtures {
  base: string;
  cookie: string;
  facilityId: string;
  edited: string[];
  paying: string[];
  movers: string[];
  units: string[];
}

/** What the commands have used up so far: units moved into, customers added, edits sent, credit paid per renter. */
export interface ClientState {
  unitCursor: number;
  created: number;
  /** Edits sent so far, in every process and run: each edit's phone carries its number, so that no two edits write the same phone. */
  edits: number;
  credits: Array<[string, number]>;
}

/**
 * What the read after a command's 2xx found: the change, or (edits only) the value of an edit of
 * the same customer appended after it, which replaced it (not a miss of read-your-writes), or neither.
 */
export type Shown = 'shown' | 'overtaken' | 'missing';

/** The phone an edit writes: its number among all edits, so that each edit's change can be found in the customer's history. */
const editPhone = (edit: number) => `555-${String(edit).padStart(7, '0')}`;
const editOfPhone = (phone: unknown) => (typeof phone === 'string' && /^555-\d{7}$/.test(phone) ? Number(phone.slice(4)) : null);

export type Kind = 'create' | 'edit' | 'moveIn' | 'payment';

// 40% creates, 25% edits, 20% move-ins, 15% payments, interleaved: 20 slots, one per command in turn.
export const mix = 'create edit create moveIn payment create edit moveIn create edit payment create edit moveIn create edit payment create moveIn create'.split(
  ' ',
) as Kind[];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Sends `count` requests at `rate` per second on schedule; latency is from each one's scheduled time. */
export async function openLoop(rate: number, count: number, send: (i: number) => Promise<boolean>) {
  const latencies: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const begun = performance.now();
  for (let i = 0; i < count; i++) {
    const due = begun + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      send(i).then(
        (ok) => {
          if (ok) latencies.push(performance.now() - due);
          else failed++;
        },
        () => {
          failed++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - begun) / 1000;
  return { latencies, failed, achieved: latencies.length / elapsed };
}

export function caller(base: string, cookie: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  };
}

export const customerBody = (facilityId: string, i: number, what: string) => ({
  firstName: 'Bench',
  lastName: `${what} ${i}`,
  email: `${what}-${i}-${crypto.randomUUID().slice(0, 8)}@example.com`,
  facilityId,
});

const shownIf = (shown: boolean): Shown => (shown ? 'shown' : 'missing');

/** One command of each kind; it answers the read that checks it (what that read found), or null when it failed. */
export function deskCommands(fixtures: Fixtures, state: ClientState) {
  const call = caller(fixtures.base, fixtures.cookie);
  const credits = new Map(state.credits);
  const { edited, paying, movers, units } = fixtures;
  const commands: Record<Kind, (i: number) => Promise<(() => Promise<Shown>) | null>> = {
    create: async () => {
      const body = customerBody(fixtures.facilityId, state.created++, 'added');
      const r = await call('POST', '/api/customers', body);
      if (r.status !== 201) return null;
      return async () => {
        const list = await call('GET', `/api/customers?search=${encodeURIComponent(body.email)}`);
        return shownIf(list.body.some((c: { id: string }) => c.id === r.body.id));
      };
    },
    edit: async (i) => {
      // The same customer comes round again every few hundred commands: under load its next edit
      // can land before this one's check reads it.
      const id = edited[i % edited.length]!;
      const edit = state.edits++;
      const phone = editPhone(edit);
      const r = await call('PATCH', `/api/customers/${id}`, { phone });
      if (r.status !== 200) return null;
      return async () => {
        const shown = (await call('GET', `/api/customers/${id}`)).body.phone;
        if (shown === phone) return 'shown';
        // Another edit's phone: overtaken when an edit of this customer was appended after this
        // one (whichever was sent first: two in flight at once land in either order), a stale
        // read when this edit is still the customer's last. The customer's history (its stream,
        // oldest first) says which; read only here, off the timed path.
        const history = await call('GET', `/api/history/customer/${id}`);
        const events: Array<{ changes: Array<{ after: unknown }> }> = history.body?.events ?? [];
        const setsPhone = (event: (typeof events)[number], which?: string) =>
          event.changes.some((c) => (which === undefined ? editOfPhone(c.after) !== null : c.after === which));
        const mine = events.findLastIndex((event) => setsPhone(event, phone));
        return mine >= 0 && events.slice(mine + 1).some((event) => setsPhone(event)) ? 'overtaken' : 'missing';
      };
    },
    moveIn: async (i) => {
      const unitId = units[state.unitCursor++ % units.length]!;
      const customerId = movers[i % movers.length]!;
      const r = await call('POST', '/api/leases', { customerId, unitId, monthlyRate: '100.00', depositAmount: null, startDate: '2026-11-01' });
      if (r.status !== 201) return null;
      return async () => {
        // The renter's leases, newest first, as the customer page lists them.
        const leases = await call('GET', `/api/leases?customerId=${customerId}`);
        return shownIf(leases.body.some((l: { id: string; unit: { id: string } }) => l.id === r.body.id && l.unit.id === unitId));
      };
    },
    payment: async (i) => {
      const id = paying[i % paying.length]!;
      const r = await call('POST', `/api/customers/${id}/payments`, { amount: '1.00', method: 'cash' });
      if (r.status !== 201) return null;
      // Every payment of this renter answered so far is credit (they owe nothing); a later payment only adds to it.
      const paid = (credits.get(id) ?? 0) + 1;
      credits.set(id, paid);
      state.credits = [...credits];
      return async () => shownIf(Number((await call('GET', `/api/customers/${id}/account`)).body.credit) >= paid);
    },
  };
  return commands;
}

/** The mixed load at one rate: each command on schedule, then (not timed) the read that must show it. */
export async function mixedLoad(commands: ReturnType<typeof deskCommands>, rate: number, count: number) {
  let missing = 0;
  let overtaken = 0;
  const checking: Promise<void>[] = [];
  const run = await openLoop(rate, count, async (i) => {
    const check = await commands[mix[i % mix.length]!](i);
    if (!check) return false;
    // The read right after the 2xx is not part of the command's latency, but it must show the change.
    checking.push(
      check().then(
        (shown) => {
          if (shown === 'missing') missing++;
          if (shown === 'overtaken') overtaken++;
        },
        () => {
          missing++;
        },
      ),
    );
    return true;
  });
  await Promise.all(checking);
  return { ...run, missing, overtaken };
}

/** The peer's load: one POST that inserts, then one GET that reads it back. */
export function peerLoad(peerBase: string, rate: number, count: number) {
  return openLoop(rate, count, async (i) => {
    const created = await fetch(`${peerBase}/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `peer-${rate}-${i}@example.com` }),
    });
    if (created.status !== 201) return false;
    const { id } = (await created.json()) as { id: string };
    const read = await fetch(`${peerBase}/customers/${id}`);
    return read.status === 200 && ((await read.json()) as { id: string } | null)?.id === id;
  });
}

export type ClientRequest =
  | { kind: 'ours'; rate: number; count: number; fixtures: Fixtures; state: ClientState }
  | { kind: 'peer'; rate: number; count: number; peerBase: string };

export interface ClientReply {
  latencies: number[];
  failed: number;
  achieved: number;
  /** Commands answered 2xx whose change the next read did not show. */
  missing: number;
  /** Edits whose check found a later edit of the same customer instead (not counted as missing). */
  overtaken: number;
  state?: ClientState;
  /** This child's CPU for the run, ms. */
  cpuMs: number;
}

// Forked by the benchmark: runs each load it is sent and answers with what it measured.
if (process.send && process.argv.includes('--bench-client')) {
  process.on('message', async (request: ClientRequest) => {
    const cpuBefore = process.cpuUsage();
    let reply: Omit<ClientReply, 'cpuMs'>;
    if (request.kind === 'ours') {
      const state = { ...request.state };
      reply = { ...(await mixedLoad(deskCommands(request.fixtures, state), request.rate, request.count)), state };
    } else {
      reply = { ...(await peerLoad(request.peerBase, request.rate, request.count)), missing: 0, overtaken: 0 };
    }
    const cpu = process.cpuUsage(cpuBefore);
    process.send!({ ...reply, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies ClientReply);
  });
}
