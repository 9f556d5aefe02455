/** An amount in cents as people read it: `$12,500.00`, `€980.00`, `¥1,000` (the currency's own decimals). */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}
