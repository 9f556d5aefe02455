import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";

/** Follow-ups on a contact: open until done. The recap counts the open ones and shows the next one due. */

/** What a task's text fields mean, in the task and its create and update bodies. */
const taskTexts = {
  title: "What is to be done (`Send the condition report`).",
  notes: "Details for whoever does it; null for none.",
} as const;

export const Task = z
  .object({
    id: z.string().openapi({ example: "task_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    contact_id: z.string().nullable().openapi({
      description:
        "The contact the task follows up (always set on the tasks listed under a contact); null for a task of the gallery itself.",
    }),
    title: z.string().openapi({ description: taskTexts.title }),
    notes: z.string().nullable().openapi({ description: taskTexts.notes }),
    due_at: TimestampOut.nullable().openapi({
      description:
        "When it is due (UTC, milliseconds); null for none. The contact's recap shows the next one due.",
    }),
    done: z.boolean().openapi({ description: "Whether the task is done (completed_at is set)." }),
    completed_at: TimestampOut.nullable().openapi({
      description: "When it was marked done; null while open.",
    }),
    assignee_id: z.string().nullable().openapi({ description: "The member responsible, if any." }),
    created_by: z.string().nullable().openapi({
      description: "The member who created it (a member session); null when an API key created it.",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Task");

const taskFields = {
  title: z.string().trim().min(1).max(500).openapi({ description: taskTexts.title }),
  notes: z.string().max(20_000).nullable().openapi({ description: taskTexts.notes }),
  due_at: UtcTimestamp.nullable().openapi({
    description: "When it is due (UTC, ends in Z); null for none.",
  }),
  done: z.boolean().openapi({
    description:
      "true marks the task done (completed_at becomes now; a task already done keeps its completed_at); false reopens it.",
  }),
  assignee_id: idString("mem")
    .nullable()
    .openapi({ description: "A member of this gallery, or null for nobody." }),
};

export const TaskCreate = z
  .strictObject(taskFields)
  .partial()
  .required({ title: true })
  .openapi("TaskCreate", { description: "`done` defaults to false; the other fields to null." });
export const TaskUpdate = z.strictObject(taskFields).partial().openapi("TaskUpdate");
export type TaskCreateInput = z.infer<typeof TaskCreate>;
export type TaskUpdateInput = z.infer<typeof TaskUpdate>;

export const TaskParams = z.strictObject({
  id: idString("con").openapi({ param: { name: "id", in: "path" } }),
  taskId: idString("task").openapi({ param: { name: "taskId", in: "path" } }),
});
