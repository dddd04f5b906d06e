/**
 * The pre-rendered tables of the evidence (message/text-table.ts, the node-diff table in
 * the text report and a chat code block) are padded by terminal columns: a Korean header
 * (two columns a syllable) lines up with its rows, and ASCII tables read as before.
 */
import { describe, expect, it } from 'vitest';
import { table } from '../../src/message/text-table.js';
import { columns } from '../../src/text/columns.js';

/** The terminal column each cell of a line starts at. */
function starts(line: string, cells: readonly string[]): number[] {
  let from = 0;
  return cells.map((cell) => {
    const at = line.indexOf(cell, from);
    from = at + cell.length;
    return columns(line.slice(0, at));
  });
}

describe('evidence tables in fixed width', () => {
  it('lines a Korean header up with its rows', () => {
    const [head = '', row = ''] = table(
      ['필드', '실패 노드', '정상 노드'],
      [['kernelVersion', '6.1.0-13', '6.5.0-1']],
    ).split('\n');
    expect(starts(head, ['필드', '실패 노드', '정상 노드'])).toEqual(
      starts(row, ['kernelVersion', '6.1.0-13', '6.5.0-1']),
    );
  });

  it('pads ASCII as before: two spaces after the widest cell', () => {
    expect(table(['FIELD', 'FAILING'], [['kernelVersion', '6.1']])).toBe(
      'FIELD          FAILING\nkernelVersion  6.1',
    );
  });
});
