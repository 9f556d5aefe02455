import { sql } from "drizzle-orm";
import { newId } from "../../lib/ids";
import { hashPassword } from "../../lib/password";
import { db } from "./gallery";

export interface TestMember {
  id: string;
  email: string;
  password: string;
}

/** A member of the gallery, written directly (members are invited outside the API). */
export async function createMember(
  galleryId: string,
  role: "editor" | "viewer",
  opts: { disabled?: boolean } = {},
): Promise<TestMember> {
  const id = newId("mem");
  const email = `${id}@Gallery.Example`;
  const password = `pw-${crypto.randomUUID()}`;
  await db().execute(sql`insert into members (id, gallery_id, email, name, role, password_hash, disabled_at)
    values (${id}, ${galleryId}, ${email}, ${`Member ${role}`}, ${role}, ${await hashPassword(password)},
      ${opts.disabled ? sql`now()` : null})`);
  return { id, email, password };
}
