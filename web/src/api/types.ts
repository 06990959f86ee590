// Names for the shapes the views use, taken from the generated OpenAPI types.
import type { operations } from './schema';

type Json<Op extends keyof operations, S extends number = 200> =
  operations[Op]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;
type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export type ClientConfig = Json<'getConfig'>;
export type Me = Json<'getMe'>;
export type Transaction = Json<'getTransactionsById'>;
export type TransactionPage = Json<'getTransactions'>;
/** A row of a page of the books: a transaction with what its row shows of its attachments. */
export type TransactionRow = TransactionPage['list'][number];
export type TransactionQuery = Query<'getTransactions'>;
export type NewTransaction = Body<'postTransactions'>;
export type Category = Json<'getCategories'>['list'][number];
export type Tag = Json<'getTags'>['list'][number];
export type SavedFilter = Json<'getFilters'>['list'][number];
export type Criteria = Body<'postFilters'>['criteria'];
export type Suggestion = Json<'getCategoriesSuggest'>['list'][number];
export type Summary = Json<'getStatsSummary'>;
export type StatsQuery = Query<'getStatsSummary'>;
export type Budget = Json<'getBudget'>;
export type Group = Json<'getGroups'>['list'][number];
export type Member = Json<'getGroupsByIdMembers'>['list'][number];
export type Notification = Json<'getNotifications'>['list'][number];
export type NotificationInput = Body<'postNotifications'>;
export type Feedback = Json<'getFeedbackMine'>['list'][number];
export type AdminFeedback = Json<'getAdminFeedback'>['list'][number];
export type RecurringRule = Json<'getRecurring'>['list'][number];
export type RecurringInput = Body<'postRecurring'>;
export type AdminUser = Json<'getAdminUsers'>['list'][number];
export type Dashboard = Json<'getAdminDashboard'>;
export type Backup = Json<'getBackup'>['list'][number];
export type LogEntry = Json<'getLogsQuery'>['list'][number];
export type LogDay = Json<'getLogsStats'>['list'][number];
export type LogFile = Json<'getLogsFiles'>['list'][number];
export type TrackStats = Json<'getLogsTrackStats'>;
export type TrackEvent = Json<'getLogsTrackList'>['list'][number];
export type Health = Json<'getHealth'>;
export type ImportResult = Json<'postImport'>;
export type Kind = 'expense' | 'income';
export type SessionInfo = Json<'getMeSessions'>['list'][number];
export type Passkey = Json<'getMePasskeys'>['list'][number];
export type ApiToken = Json<'getMeTokens'>['list'][number];
export type NewApiToken = Json<'postMeTokens', 201>;
