/**
 * How long the platform keeps what it records, and promises to: the API's descriptions and the purge read the
 * same numbers.
 */

/**
 * Domain events are kept this many days after they were recorded, and with each event its webhook deliveries and
 * their attempts; then the cron Worker purges them. An event is retrievable by id for the whole window.
 */
export const EVENT_RETENTION_DAYS = 30;
