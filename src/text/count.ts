/**
 * A count with its noun, singular or plural: the one place words like "1 replacement",
 * "3 replacements" are made.
 *
 * @example counted(1, 'replacement') // '1 replacement'
 */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
