ALTER TABLE "groups" ADD COLUMN "split_costs" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Groups whose members already used splitting (a split other than equal, a record paid by another
-- member, or a settlement) keep splitting; every other group records shared books without debts,
-- as the first contract's groups did. Shares already recorded stay in every case.
UPDATE "groups" SET "split_costs" = true WHERE EXISTS (SELECT 1 FROM "transaction_shares" s WHERE s."group_id" = "groups"."id" AND s."mode" <> 'equal')
  OR EXISTS (SELECT 1 FROM "transactions" t WHERE t."group_id" = "groups"."id" AND t."paid_by" IS NOT NULL AND t."paid_by" <> t."user_id")
  OR EXISTS (SELECT 1 FROM "settlements" x WHERE x."group_id" = "groups"."id");
