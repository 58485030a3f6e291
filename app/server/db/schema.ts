import type { ColumnType, Generated } from "kysely";

// Timestamps are ISO-8601 strings in UTC ("2026-11-22T04:41:00.000Z") in both dialects: they
// sort as text, compare with plain string operators and never shift with a server's time zone.
// Booleans are integers 0/1 and money is integer fen, for the same reason: one shape everywhere.

export interface UsersTable {
  id: Generated<number>;
  nickname: string | null;
  /** The nickname folded for comparison (lib/nickname-words nicknameKey): unique per campus (0043). */
  nickname_key: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_url: string | null;
  phone: string | null;
  theme: string | null;
  appearance: string | null;
  campus_code: string | null;
  // The messenger identity (optional).
  openid: string | null;
  unionid: string | null;
  wechat_nickname: string | null;
  wechat_avatar: string | null;
  wechat_sex: number | null;
  wechat_city: string | null;
  wechat_province: string | null;
  wechat_country: string | null;
  wechat_authorized_at: string | null;
  // The bound student account (optional).
  school_code: string | null;
  student_id: string | null;
  password_enc: string | null;
  real_name: string | null;
  class_name: string | null;
  college: string | null;
  student_bound_at: string | null;
  /** The invite-register dialog's student id, as claimed (unverified; 0008_coupons). */
  claimed_student_id: string | null;
  deletion_requested_at: string | null;
  created_at: string;
  updated_at: string;
}

export type SessionEndReason = "logout" | "replaced" | "expired" | "credentials_invalid" | "deleted";

export interface SessionsTable {
  id: string;
  user_id: number;
  device_id: string;
  platform: string;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
  end_reason: SessionEndReason | null;
  /** Last request seen (written at most hourly); null: never since created_at. */
  last_seen_at?: string | null;
}

export interface SchoolsTable {
  code: string;
  name: string;
  system: string;
  base_url: string | null;
  sort_order: number;
  enabled: number;
  /** How the school counts grades (GradeScale as JSON); null: the defaults. */
  grade_scale: ColumnType<string | null, string | null | undefined, string | null>;
  /** The GPA rule (GpaFormula); 'standard4' unless the operator chose another. */
  gpa_formula: ColumnType<string, string | undefined, string>;
}

export interface CampusesTable {
  code: string;
  name: string;
  status: string;
  sort_order: number;
}

export interface DormBuildingsTable {
  id: Generated<number>;
  campus_code: string;
  name: string;
  sort_order: number;
  /** 0: turned off by an operator (0011_reference_data); kept for the addresses that name it. */
  enabled: Generated<number>;
}

export interface PackageTypesTable {
  campus_code: string;
  type: string;
  name: string;
  description: string;
  price_fen: number;
  sort_order: number;
}

export interface ForumCategoriesTable {
  id: number;
  name: string;
  description: string;
  icon: string;
  sort_order: number;
}

/** The nonces of captcha tokens already used (a token passes once), until the token expires. */
export interface CaptchaNoncesTable {
  nonce: string;
  expires_at: string;
}

/** A login throttle's counter (decision 015): failures for one key and its current backoff. */
export interface LoginThrottlesTable {
  key: string;
  failures: number;
  last_failure_at: string;
  blocked_until: string | null;
}

export interface OAuthStatesTable {
  state: string;
  /** "resume": the silent (snsapi_base) sign-in again of a messenger-bound student. */
  purpose: "user" | "operator" | "resume";
  return_path: string;
  session_id: string | null;
  operator_id: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AcademicSessionsTable {
  user_id: number;
  state_enc: string;
  updated_at: string;
}

export interface OperatorsTable {
  id: Generated<number>;
  username: string;
  display_name: string;
  password_hash: string;
  role: string;
  openid: string | null;
  disabled: number;
  created_at: string;
  last_login_at: string | null;
  /** A rider's phone for the team (0038_riders). */
  phone: Generated<string | null>;
  /** 1: the admin may give this rider a run (0038_riders). */
  available: Generated<number>;
}

export interface OperatorSessionsTable {
  id: string;
  operator_id: number;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}

export interface TimetableCacheTable {
  user_id: number;
  term: string;
  /** The adapter's Timetable as JSON. */
  data: string;
  fetched_at: string;
}

export interface GradesCacheTable {
  user_id: number;
  /** The adapter's GradeReport as sealed JSON. */
  data_enc: string;
  fetched_at: string;
}

export interface ExamsCacheTable {
  user_id: number;
  term: string;
  /** The adapter's ExamList as JSON. */
  data: string;
  fetched_at: string;
}

export interface GradeSettingsTable {
  user_id: number;
  notify_new_grades: number;
  updated_at: string;
}

export interface SchoolTermInfoTable {
  school_code: string;
  /** The adapter's TermInfo as JSON. */
  data: string;
  fetched_at: string;
}

export interface ScheduleSettingsTable {
  user_id: number;
  course_reminder: Generated<number>;
  substitute_reminder: Generated<number>;
  announcement_reminder: Generated<number>;
  calendar_token: string | null;
  /** Courses of other weeks shown greyed in the grid (0040). */
  show_other_weeks: Generated<number>;
  /** The calendar feed's alarm, minutes before each class; 0 = none (0040). */
  alarm_minutes: Generated<number>;
  updated_at: string;
}

/** A student's own course or local override of a school course (0040_timetable_own). */
export interface TimetableEditsTable {
  id: Generated<number>;
  user_id: number;
  term: string;
  kind: "own" | "override";
  /** override: the school course's key (app/lib/timetable-edits.ts syncedCourseKey). */
  course_key: string | null;
  hidden: Generated<number>;
  removed: Generated<number>;
  name: string | null;
  teacher: string | null;
  location: string | null;
  weekday: number | null;
  start_period: number | null;
  end_period: number | null;
  /** JSON array of week numbers; null keeps the school's. */
  weeks: string | null;
  note: Generated<string>;
  colour: number | null;
  /** JSON of the editable fields before the last change (undo); a new row's is itself removed. */
  previous: string | null;
  created_at: string;
  updated_at: string;
}

/** One 校历 entry of a school's term (0040_timetable_own). */
export interface SchoolCalendarEntriesTable {
  id: Generated<number>;
  school_code: string;
  term: string;
  kind: "holiday" | "makeup" | "exam_week";
  from_date: string;
  to_date: string;
  runs_date: string | null;
  label: string;
  created_at: string;
}

// The circle (0003_circle). Moderation: "visible"; "pending" (hidden by reports until an
// operator reviews it); "hidden" (an operator hid it).
export type ModerationState = "visible" | "pending" | "hidden";
export type PostStatus = "ongoing" | "completed";
export type ReportReason = "spam" | "offensive" | "off_topic" | "other";

export interface PostsTable {
  id: Generated<number>;
  user_id: number;
  category_id: number;
  title: string | null;
  content: string;
  status: PostStatus | null;
  visibility: string;
  is_anonymous: number;
  view_count: number;
  comment_count: number;
  like_count: number;
  moderation: ModerationState;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
  /** 热门: ln of the post's decayed events (app/lib/hot.ts), updated on each like and comment (0041). */
  hot_score: ColumnType<number, number | undefined, number>;
}

/** The name an anonymous participant drew in a thread: an index into the pseudonym list (0041). */
export interface ThreadPseudonymsTable {
  post_id: number;
  user_id: number;
  name_index: number;
}

/** 收藏: a post a person keeps (0041). */
export interface PostFavouritesTable {
  user_id: number;
  post_id: number;
  created_at: string;
}

export interface UploadsTable {
  id: Generated<number>;
  key: string;
  user_id: number;
  post_id: number | null;
  position: number;
  width: number;
  height: number;
  bytes: number;
  created_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  post_id: number;
  user_id: number;
  /** The comment answered (its author is the reply's @mention). */
  parent_id: number | null;
  /** The top-level comment whose thread holds this reply; null for a top-level comment. */
  root_id: number | null;
  content: string;
  is_anonymous: number;
  like_count: number;
  moderation: ModerationState;
  reviewed_at: string | null;
  created_at: string;
}

export interface PostLikesTable {
  post_id: number;
  user_id: number;
  created_at: string;
}

export interface CommentLikesTable {
  comment_id: number;
  user_id: number;
  created_at: string;
}

export interface PostViewsTable {
  post_id: number;
  user_id: number;
  day: string;
}

export interface ReportsTable {
  id: Generated<number>;
  target_type: "post" | "comment";
  target_id: number;
  post_id: number;
  user_id: number;
  reason: ReportReason;
  created_at: string;
  resolved_at: string | null;
}

export interface ForumBansTable {
  user_id: number;
  operator_id: number | null;
  reason: string | null;
  created_at: string;
}

// The market (0005_market).
export interface PackageTypeStandardsTable {
  id: Generated<number>;
  campus_code: string;
  type: string;
  title: string;
  description: string;
  /** JSON array of strings. */
  examples: string;
  sort_order: number;
}

export interface DeliverySlotsTable {
  id: Generated<number>;
  order_start_time: string;
  order_end_time: string;
  delivery_start_time: string;
  delivery_end_time: string;
  estimated_time: string;
  sort_order: number;
}

/** Orders one delivery slot takes per campus (0039_operators_day); no row: no limit. */
export interface SlotCapacitiesTable {
  slot_id: number;
  campus_code: string;
  capacity: number;
}

/** Places taken in a campus's delivery at one promised instant (0039_operators_day). */
export interface SlotLoadsTable {
  campus_code: string;
  /** The promised instant, ISO (orders.estimated_delivery_at). */
  delivery_at: string;
  n: Generated<number>;
}

export interface PickupPlacesTable {
  id: Generated<number>;
  campus_code: string;
  name: string;
  sort_order: number;
  /** 0: turned off by an operator (0011_reference_data). */
  enabled: Generated<number>;
}

export interface AddressesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  phone: string;
  campus_code: string;
  building: string;
  room: string;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export interface CheckoutsTable {
  id: Generated<number>;
  user_id: number;
  campus_code: Generated<string | null>;
  sms_text: Generated<string>;
  /** JSON array of PickupEntry. */
  entries: Generated<string>;
  /** JSON object { pocket, small, medium, large }. */
  counts: Generated<string>;
  address_id: Generated<number | null>;
  remark: Generated<string>;
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface RecognitionConsentsTable {
  user_id: number;
  consent: number;
  decided_at: string;
}

export interface RecognitionCorrectionsTable {
  id: Generated<number>;
  user_id: number;
  sender_tag: string;
  original: string;
  recognized: string;
  entered: string;
  created_at: string;
}

export interface FeatureRequestsTable {
  id: Generated<number>;
  user_id: number | null;
  feature_type: string;
  user_agent: string | null;
  platform: string | null;
  created_at: string;
}

// Notifications (0006_notify).
export type OutboxState = "pending" | "sending" | "sent" | "undeliverable" | "cancelled" | "expired";
export type OutboxChannel = "template" | "subscribe";

export interface OutboxMessagesTable {
  id: Generated<number>;
  user_id: number | null;
  operator_id: number | null;
  openid: string;
  kind: string;
  template_key: string | null;
  subscribe_key: string | null;
  channel: OutboxChannel;
  /** The template's named fields as JSON. */
  data: string;
  link: string | null;
  state: OutboxState;
  attempts: number;
  next_attempt_at: string;
  claim_token: string | null;
  claimed_until: string | null;
  last_error: string | null;
  provider_msgid: string | null;
  dedupe_key: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

export interface InboxItemsTable {
  id: Generated<number>;
  user_id: number;
  actor_user_id: number | null;
  kind: string;
  /** The event's fields as JSON. */
  data: string;
  link: string | null;
  dedupe_key: string | null;
  read_at: string | null;
  created_at: string;
}

export interface SubscribeConsentsTable {
  user_id: number;
  template_key: string;
  confirmed_at: string;
  expires_at: string;
  used_at: string | null;
  outbox_id: number | null;
  reserved: string | null;
  updated_at: string;
}

export interface SubscribeSnoozesTable {
  user_id: number;
  template_key: string;
  until: string;
}

export interface MessengerTokensTable {
  name: string;
  /** Sealed (AES-256-GCM). */
  value: string;
  expires_at: string;
  updated_at: string;
}

export type CourseReminderState = "scheduled" | "queued" | "cancelled" | "missed";

export interface CourseRemindersTable {
  id: Generated<number>;
  user_id: number;
  occurrence_key: string;
  course_name: string;
  place: string;
  time_text: string;
  starts_at: string;
  ends_at: string;
  remind_at: string;
  state: CourseReminderState;
  outbox_id: number | null;
  created_at: string;
  updated_at: string;
}

// Orders and payment (0007_orders).
export type OrderStatusColumn = "created" | "paid" | "assigned" | "picking" | "delivering" | "completed" | "cancelled" | "refunded";
export type PaymentStatusColumn = "pending" | "paid" | "refunded" | "closed";
export type RefundStateColumn = "requested" | "processing" | "refunded" | "rejected" | "failed";

export interface OrdersTable {
  id: Generated<number>;
  order_number: string;
  user_id: number | null;
  order_type: Generated<string>;
  campus_code: string;
  campus_name: string;
  recipient_name: string | null;
  recipient_phone: string | null;
  recipient_dorm: string | null;
  recipient_room: string | null;
  delivery_address: string | null;
  /** JSON array of pickup code items. */
  pickup_codes: string | null;
  /** JSON { pocket, small, medium, large }. */
  package_counts: string;
  parcel_count: number;
  remark: string | null;
  original_fen: number;
  discount_fen: Generated<number>;
  amount_fen: number;
  coupon_id: number | null;
  status: OrderStatusColumn;
  payment_status: PaymentStatusColumn;
  refund_state: RefundStateColumn | null;
  refund_reason: string | null;
  cancel_reason: string | null;
  estimated_delivery_at: string;
  checkout_key: string | null;
  idempotency_key: string | null;
  expires_at: string;
  paid_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  refunded_at: string | null;
  created_at: string;
  updated_at: string;
  /** An operator's soft delete (0009_admin): hidden from the admin pages, kept for the audit. */
  deleted_at: Generated<string | null>;
  deleted_by: Generated<number | null>;
  /** Fen per size when the order was priced, JSON (0021_money_ledger); null on older orders. */
  unit_prices: Generated<string | null>;
  /** The earliest station deadline among the parcels, ISO timestamp (0044_pickup_deadline); null: none given. */
  pickup_deadline: Generated<string | null>;
  /** The rider carrying the order (0038_riders). */
  rider_id: Generated<number | null>;
  /** The 4 digits the student gives the rider at the door, made at the first assignment. */
  handover_code: Generated<string | null>;
  /** Wrong handover codes typed for this order. */
  handover_failures: Generated<number>;
  /** How 已送达 was proved: 'code' or 'photo'. */
  delivered_by: Generated<string | null>;
  /** The stored file name of the delivery photo (private: served to the student and operators only). */
  delivery_photo: Generated<string | null>;
}

/** A parcel the rider has in hand: the order and the parcel's place in its pickup list (0038_riders). */
export interface ParcelPicksTable {
  order_id: number;
  position: number;
  operator_id: number | null;
  picked_at: string;
}

export interface OrderEventsTable {
  id: Generated<number>;
  order_id: number;
  type: string;
  from_status: string | null;
  to_status: string | null;
  actor: "customer" | "operator" | "provider" | "system";
  operator_id: number | null;
  note: string | null;
  created_at: string;
}

export interface PaymentsTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  out_trade_no: string;
  amount_fen: number;
  prepay_id: string | null;
  prepay_at: string | null;
  state: "created" | "paid" | "closed" | "refunded";
  transaction_id: string | null;
  payer_openid: string | null;
  success_time: string | null;
  created_at: string;
  updated_at: string;
}

export interface RefundsTable {
  id: Generated<number>;
  order_id: number;
  out_refund_no: string;
  kind: "cancel" | "request" | "auto" | "delivery_failed" | "parcel_left";
  amount_fen: number;
  state: "requested" | "processing" | "succeeded" | "rejected" | "failed";
  reason: string | null;
  refund_id: string | null;
  operator_id: number | null;
  error: string | null;
  decided_at: string | null;
  succeeded_at: string | null;
  created_at: string;
  updated_at: string;
  /** The trade refunded (0047): null is the order's own payment, else its supplement's out_trade_no. */
  out_trade_no: Generated<string | null>;
}

/**
 * A size found wrong at pickup (0047): the second payment of an order, one per order. offered →
 * paid (accepted and confirmed by the provider) | declined (the parcel stays, refunded) | void.
 */
export interface OrderSupplementsTable {
  id: Generated<number>;
  order_id: number;
  out_trade_no: string;
  position: number;
  declared_size: string;
  real_size: string;
  amount_fen: number;
  state: "offered" | "paid" | "declined" | "void";
  operator_id: number | null;
  prepay_id: string | null;
  transaction_id: string | null;
  payer_openid: string | null;
  success_time: string | null;
  decided_at: string | null;
  /** When a 配送失败 covered this parcel (it was not delivered): a paid supplement is then refunded. */
  missing_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReviewsTable {
  id: Generated<number>;
  order_id: number;
  user_id: number | null;
  rating: number;
  comment: string | null;
  created_at: string;
}

// The operators' audit log (0009_admin).
/** Live (not deleted) orders per campus and status, kept by triggers (0010_list_order_indexes). */
/** One row (id 1): raised by triggers on every change of the reference tables (decision 056). */
export interface ReferenceVersionTable {
  id: number;
  version: number;
}

export interface OrderCountsTable {
  campus_code: string;
  status: OrderStatusColumn;
  n: number;
}

export interface AdminAuditTable {
  id: Generated<number>;
  operator_id: number | null;
  operator_name: string;
  action: string;
  order_id: number | null;
  order_number: string | null;
  refund_id: number | null;
  detail: string | null;
  created_at: string;
}

// Coupons and the invite campaign (0008_coupons).
export type CouponType = "percentage" | "fixed";
export type UserCouponStatus = "unused" | "reserved" | "used";

export interface CouponTemplatesTable {
  id: Generated<number>;
  code: string;
  name: string;
  type: CouponType;
  percent_paid: number | null;
  fixed_price_fen: number | null;
  min_amount_fen: number;
  valid_days: number;
  created_at: string;
}

export type GrantEvent = "new_user" | "assist" | "milestone";

export interface CouponGrantRulesTable {
  id: Generated<number>;
  event: GrantEvent;
  threshold: number;
  template_id: number;
  quantity: number;
  sort_order: number;
}

export interface CouponGrantsTable {
  id: Generated<number>;
  user_id: number;
  grant_key: string;
  via: string;
  created_at: string;
}

export interface UserCouponsTable {
  id: Generated<number>;
  user_id: number;
  grant_id: number | null;
  template_id: number | null;
  name: string;
  type: CouponType;
  percent_paid: number | null;
  fixed_price_fen: number | null;
  min_amount_fen: number;
  status: UserCouponStatus;
  order_id: number | null;
  used_at: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface InviteLinksTable {
  user_id: number;
  token: string;
  created_at: string;
}

export interface InvitesTable {
  id: Generated<number>;
  inviter_user_id: number;
  invitee_user_id: number | null;
  status: "pending" | "completed";
  assist_id: number | null;
  created_at: string;
  completed_at: string | null;
  updated_at: string;
}

export interface AssistsTable {
  id: Generated<number>;
  inviter_user_id: number;
  assistant_user_id: number | null;
  created_at: string;
}

export interface CouponChoicesTable {
  user_id: number;
  coupon_id: number | null;
  updated_at: string;
}

/** Promotions once per person (0012): keyed hashes of stable identities, kept after account deletion. */
export interface PromotionMarksTable {
  identity_hash: string;
  mark: "new_user" | "has_assisted";
  created_at: string;
}

export interface MutualHelpRequestsTable {
  post_id: number;
  user_id: number;
  contact: string | null;
  created_at: string;
  /** Which class (helpClassKey) and which meeting of it; null on requests from before they were kept. */
  class_key: string | null;
  class_date: string | null;
  class_starts_at: string | null;
}

export interface MutualHelpOffersTable {
  id: Generated<number>;
  post_id: number;
  helper_user_id: number;
  helper_contact: string;
  created_at: string;
}

/** A draft sent after the session ended (0016): kept 30 minutes for the same browser and student. */
export interface DraftStashTable {
  id: string;
  user_id: number | null;
  kind: "post" | "comment" | "help";
  path: string;
  payload: string;
  created_at: string;
  expires_at: string;
}

/** The circle's notice switches of a student (no row: all on). */
export interface NoticeSettingsTable {
  user_id: number;
  replies: number;
  mentions: number;
  likes: number;
  updated_at: string;
}

export interface Database {
  notice_settings: NoticeSettingsTable;
  draft_stash: DraftStashTable;
  mutual_help_requests: MutualHelpRequestsTable;
  mutual_help_offers: MutualHelpOffersTable;
  users: UsersTable;
  sessions: SessionsTable;
  schools: SchoolsTable;
  campuses: CampusesTable;
  dorm_buildings: DormBuildingsTable;
  package_types: PackageTypesTable;
  forum_categories: ForumCategoriesTable;
  captcha_nonces: CaptchaNoncesTable;
  login_throttles: LoginThrottlesTable;
  oauth_states: OAuthStatesTable;
  academic_sessions: AcademicSessionsTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  package_type_standards: PackageTypeStandardsTable;
  delivery_slots: DeliverySlotsTable;
  slot_capacities: SlotCapacitiesTable;
  slot_loads: SlotLoadsTable;
  pickup_places: PickupPlacesTable;
  addresses: AddressesTable;
  checkouts: CheckoutsTable;
  feature_requests: FeatureRequestsTable;
  recognition_consents: RecognitionConsentsTable;
  recognition_corrections: RecognitionCorrectionsTable;
  posts: PostsTable;
  uploads: UploadsTable;
  comments: CommentsTable;
  post_likes: PostLikesTable;
  comment_likes: CommentLikesTable;
  post_views: PostViewsTable;
  thread_pseudonyms: ThreadPseudonymsTable;
  post_favourites: PostFavouritesTable;
  reports: ReportsTable;
  forum_bans: ForumBansTable;
  timetable_cache: TimetableCacheTable;
  grades_cache: GradesCacheTable;
  exams_cache: ExamsCacheTable;
  grade_settings: GradeSettingsTable;
  school_term_info: SchoolTermInfoTable;
  schedule_settings: ScheduleSettingsTable;
  timetable_edits: TimetableEditsTable;
  school_calendar_entries: SchoolCalendarEntriesTable;
  outbox_messages: OutboxMessagesTable;
  inbox_items: InboxItemsTable;
  subscribe_consents: SubscribeConsentsTable;
  subscribe_snoozes: SubscribeSnoozesTable;
  messenger_tokens: MessengerTokensTable;
  course_reminders: CourseRemindersTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  reviews: ReviewsTable;
  coupon_templates: CouponTemplatesTable;
  coupon_grant_rules: CouponGrantRulesTable;
  coupon_grants: CouponGrantsTable;
  promotion_marks: PromotionMarksTable;
  user_coupons: UserCouponsTable;
  invite_links: InviteLinksTable;
  invites: InvitesTable;
  assists: AssistsTable;
  coupon_choices: CouponChoicesTable;
  admin_audit: AdminAuditTable;
  order_counts: OrderCountsTable;
  reference_version: ReferenceVersionTable;
  parcel_picks: ParcelPicksTable;
  order_supplements: OrderSupplementsTable;
}
