ALTER TABLE "recurring_rules" ALTER COLUMN "category_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_rules" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "recurring_rules" ADD COLUMN "to_account_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "key" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "params" jsonb;--> statement-breakpoint
ALTER TABLE "recurring_rules" ADD CONSTRAINT "recurring_rules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_rules" ADD CONSTRAINT "recurring_rules_to_account_id_accounts_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_rules" ADD CONSTRAINT "recurring_rules_category_ck" CHECK ("recurring_rules"."kind" = 'transfer' or "recurring_rules"."category_id" is not null);--> statement-breakpoint
ALTER TABLE "recurring_rules" ADD CONSTRAINT "recurring_rules_transfer_ck" CHECK ("recurring_rules"."kind" <> 'transfer' or ("recurring_rules"."category_id" is null and "recurring_rules"."group_id" is null and "recurring_rules"."account_id" is not null and "recurring_rules"."to_account_id" is not null and "recurring_rules"."to_account_id" <> "recurring_rules"."account_id"));--> statement-breakpoint
-- Rules written before rules had an account booked into their owner's default account: they keep it.
UPDATE "recurring_rules" r SET "account_id" = a."id" FROM "accounts" a WHERE a."user_id" = r."user_id" AND a."is_default" AND r."account_id" IS NULL;
