import { listMembers as listMemberRows } from "../../db/queries/members";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { ServiceContext } from "../context";

export function listMembers(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listMemberRows(ctx.db, ctx.principal.galleryId, page);
}
