CREATE TABLE "user_setups" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"outcome" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "budgets" ALTER COLUMN "amount_cents" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "category_budgets" ALTER COLUMN "amount_cents" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "repeat" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "category_budgets" ADD COLUMN "repeat" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_setups" ADD CONSTRAINT "user_setups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;