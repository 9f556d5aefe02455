import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Task, type TaskCreateInput, type TaskUpdateInput } from "../../lib/schemas/tasks";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { tasks } from "../schema";
import { contactExists } from "./interactions";
import { type KeysetQuery, keysetChildPage } from "./keyset";
import { asRead } from "./rows";

/** The API representation of a task (alias `tk`). */
export const taskResource = resource({
  schema: Task,
  table: tasks,
  alias: "tk",
  name: "task",
  computed: { done: () => sql`tk.completed_at is not null` },
});

/** Newest first by default; `due` orders by due date, tasks without one last in either direction. */
export const taskList = listSpec({ sorts: ["created", "due"], defaultSort: "created" });
type TaskSort = (typeof taskList.sorts)[number];

/**
 * The keyset expression of a sort. `due` compares the due date as its ISO text (which orders like the instant for
 * the years 0001 to 9999 a due date can have) under the C collation, and gives a task without one a sentinel
 * that sorts after every date in the page's direction: `~` ascending, `!` descending. A cursor is bound to its
 * direction, so the sentinel a page was cut with is the one its continuation compares against.
 */
function taskSortKey(sort: TaskSort, dir: PageRequest["dir"]): Pick<KeysetQuery, "sortKey" | "cast"> {
  if (sort === "created") return { sortKey: sql`tk.created_at`, cast: "timestamptz" };
  const missing = sql.raw(dir === "asc" ? "'~'" : "'!'");
  return {
    sortKey: sql`((case when tk.due_at is null then ${missing} else ${isoMs(sql`tk.due_at`)} end) collate "C")`,
    cast: "text",
  };
}

export interface TaskFilters {
  done?: boolean;
}

/** One page (limit + 1 rows) of a contact's tasks; null when the contact is not in the gallery. */
export function listTasks(
  db: Db,
  galleryId: string,
  contactId: string,
  filters: TaskFilters,
  page: PageRequest,
): Promise<PageRow[] | null> {
  const where = [sql`tk.gallery_id = ${galleryId}`, sql`tk.contact_id = ${contactId}`];
  if (filters.done !== undefined) {
    where.push(filters.done ? sql`tk.completed_at is not null` : sql`tk.completed_at is null`);
  }
  return keysetChildPage(
    db,
    contactExists(galleryId, contactId),
    {
      body: taskResource.json({}),
      from: sql`tasks tk`,
      where,
      ...taskSortKey(page.sort as TaskSort, page.dir),
      id: sql`tk.id`,
    },
    page,
  );
}

export interface TaskState {
  body: z.infer<typeof Task>;
  updatedAt: string;
}

/** One task of the contact in the gallery, with what a guarded write needs, or null. One round trip. */
export async function findTask(
  db: Db,
  galleryId: string,
  contactId: string,
  id: string,
): Promise<TaskState | null> {
  const result = await db.execute<{ body: z.infer<typeof Task>; updated_at: string }>(
    sql`select ${taskResource.json({})} as body, ${isoMs(sql`tk.updated_at`)} as updated_at
      from tasks tk where tk.gallery_id = ${galleryId} and tk.contact_id = ${contactId} and tk.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Statements that write tasks. They are composed into one transaction by services/write.ts; none of them runs
 * on its own.
 */

/** The INSERT for `guarded()`: it inserts only while the contact is still in the gallery. */
export function insertTask(
  galleryId: string,
  contactId: string,
  id: string,
  input: TaskCreateInput,
  createdBy: string | null,
  at: string,
): SQLWrapper {
  return sql`insert into tasks (id, gallery_id, contact_id, title, notes, due_at, completed_at, assignee_id,
      created_by, created_at, updated_at)
    select ${id}, c.gallery_id, c.id, ${input.title}, ${input.notes ?? null}, ${input.due_at ?? null}::timestamptz,
      ${input.done ? at : null}::timestamptz, ${input.assignee_id ?? null}, ${createdBy}, ${at}::timestamptz,
      ${at}::timestamptz
    from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}`;
}

/**
 * The UPDATE for `guarded()`: matches only the row as it was read. `done: true` keeps the completed_at of a task
 * already done and stamps `at` on an open one; `done: false` clears it.
 */
export function updateTaskStatement(
  db: Db,
  galleryId: string,
  id: string,
  input: TaskUpdateInput,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const { done, ...fields } = input;
  const completedAt: SQL | undefined =
    done === undefined
      ? undefined
      : done
        ? sql`coalesce(${tasks.completedAt}, ${at}::timestamptz)`
        : sql`null`;
  return db
    .update(tasks)
    .set({
      ...taskResource.row({ ...fields, updated_at: at }),
      ...(completedAt ? { completedAt } : {}),
    })
    .where(asRead(tasks, galleryId, id, readUpdatedAt));
}
