CREATE TABLE "category_budgets" (
	"user_id" integer NOT NULL,
	"month" text NOT NULL,
	"category_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"carry_over" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "category_budgets_user_id_month_category_id_pk" PRIMARY KEY("user_id","month","category_id")
);
--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "carry_over" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "category_budgets" ADD CONSTRAINT "category_budgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_budgets" ADD CONSTRAINT "category_budgets_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "category_budgets_category_idx" ON "category_budgets" USING btree ("category_id");