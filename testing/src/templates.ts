// The names of a run's template databases on the run's server (platform.ts builds them on
// first use; suite-setup.ts drops them at the end when the server is not the run's own).

/** Migrated and empty: read model, event store and queue schemas, no rows. */
export const migratedTemplateName = (runId: string) => `migrated_template_${runId}`;

/** The demo dataset as the first `npm start` seeds it, its read model built. */
export const demoTemplateName = (runId: string) => `demo_template_${runId}`;

export const templateNames = (runId: string) => [demoTemplateName(runId), migratedTemplateName(runId)];
