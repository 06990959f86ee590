DROP INDEX "transactions_user_date_idx";--> statement-breakpoint
DROP INDEX "transactions_user_kind_date_idx";--> statement-breakpoint
CREATE INDEX "transactions_user_date_idx" ON "transactions" USING btree ("user_id","date" DESC NULLS LAST,"id" DESC NULLS LAST,"kind","amount_cents");--> statement-breakpoint
CREATE INDEX "transactions_user_kind_date_idx" ON "transactions" USING btree ("user_id","kind","date","amount_cents");