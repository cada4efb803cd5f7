// The schemas of the appliance's SQLite files, as numbered migrations. The SQL text of each one is
// part of its identity (its sha256 is recorded when it is applied): never edit a shipped migration,
// add the next one.

export interface Migration {
  tag: string;
  /** Creation time (ms); migrations newer than the last applied one run, in this order. */
  when: number;
  sql: string;
}

export type MigrationSet = 'appliance' | 'recordings';

export const MIGRATIONS: Record<MigrationSet, readonly Migration[]> = {
  appliance: [
    {
      tag: '0000_credentials_meta',
      when: 1763683200000,
      sql: `-- Spec B2: key-store slots and database entries of the device credentials, one row each.
CREATE TABLE \`credential_values\` (
	\`kind\` text NOT NULL,
	\`id\` integer NOT NULL,
	\`value\` text NOT NULL,
	PRIMARY KEY(\`kind\`, \`id\`)
);
--> statement-breakpoint
-- Small facts the application keeps across runs (installed versions, last seen settings).
CREATE TABLE \`device_meta\` (
	\`key\` text PRIMARY KEY NOT NULL,
	\`value\` text NOT NULL
);
`,
    },
  ],
  recordings: [
    {
      tag: '0000_recordings',
      when: 1763683200000,
      sql: `-- One database per project directory: its meeting recordings and the upload status of every file.
CREATE TABLE \`recordings\` (
	\`id\` text PRIMARY KEY NOT NULL,
	\`state\` text NOT NULL,
	\`transcription_mode\` integer NOT NULL,
	\`language\` text NOT NULL,
	\`created_at\` integer NOT NULL,
	\`started_at\` integer,
	\`ended_at\` integer,
	\`duration_ms\` integer DEFAULT 0 NOT NULL,
	\`bytes\` integer DEFAULT 0 NOT NULL,
	\`recovered\` integer DEFAULT 0 NOT NULL,
	\`cloud_state\` text DEFAULT 'local' NOT NULL,
	\`task_id\` text,
	\`last_error\` text
);
--> statement-breakpoint
CREATE TABLE \`recording_files\` (
	\`recording_id\` text NOT NULL REFERENCES \`recordings\`(\`id\`) ON DELETE CASCADE,
	\`seq\` integer NOT NULL,
	\`file_name\` text NOT NULL,
	\`state\` text NOT NULL,
	\`bytes\` integer DEFAULT 0 NOT NULL,
	\`duration_ms\` integer DEFAULT 0 NOT NULL,
	\`upload_status\` text DEFAULT 'pending' NOT NULL,
	\`upload_attempts\` integer DEFAULT 0 NOT NULL,
	\`cloud_file_id\` text,
	\`last_error\` text,
	PRIMARY KEY(\`recording_id\`, \`seq\`)
);
--> statement-breakpoint
CREATE TABLE \`recording_marks\` (
	\`recording_id\` text NOT NULL REFERENCES \`recordings\`(\`id\`) ON DELETE CASCADE,
	\`at_ms\` integer NOT NULL,
	\`created_at\` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX \`recording_marks_recording\` ON \`recording_marks\` (\`recording_id\`);
`,
    },
  ],
};
