-- Spec B2: key-store slots and database entries of the device credentials, one row each.
CREATE TABLE `credential_values` (
	`kind` text NOT NULL,
	`id` integer NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`kind`, `id`)
);
--> statement-breakpoint
-- Small facts the application keeps across runs (installed versions, last seen settings).
CREATE TABLE `device_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
