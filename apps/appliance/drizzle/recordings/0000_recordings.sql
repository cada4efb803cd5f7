-- One database per project directory: its meeting recordings and the upload status of every file.
CREATE TABLE `recordings` (
	`id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`transcription_mode` integer NOT NULL,
	`language` text NOT NULL,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`ended_at` integer,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`recovered` integer DEFAULT 0 NOT NULL,
	`cloud_state` text DEFAULT 'local' NOT NULL,
	`task_id` text,
	`last_error` text
);
--> statement-breakpoint
CREATE TABLE `recording_files` (
	`recording_id` text NOT NULL REFERENCES `recordings`(`id`) ON DELETE CASCADE,
	`seq` integer NOT NULL,
	`file_name` text NOT NULL,
	`state` text NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`upload_status` text DEFAULT 'pending' NOT NULL,
	`upload_attempts` integer DEFAULT 0 NOT NULL,
	`cloud_file_id` text,
	`last_error` text,
	PRIMARY KEY(`recording_id`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `recording_marks` (
	`recording_id` text NOT NULL REFERENCES `recordings`(`id`) ON DELETE CASCADE,
	`at_ms` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `recording_marks_recording` ON `recording_marks` (`recording_id`);
