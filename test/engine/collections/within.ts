import { useEdit, type Edit } from '../../../src/engine/collections/edit.js';

/** Runs `f` inside `edit` (or none), restoring the previous edit after. */
export function within<T>(edit: Edit | null, f: () => T): T {
  const prev = useEdit(edit);
  try {
    return f();
  } finally {
    useEdit(prev);
  }
}
