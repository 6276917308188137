import { descriptorListings, MOODS } from '../../../src/core/descriptors';
import { TAGGER_TAG_NAMES } from '../../../src/core/tags';
import { EMPTY_FORM, browseVocabulary, formFromParams as formOf, paramsFromForm, variablesOfForm } from '../../../web/src/browse/browse.filter';

/** The form's choices from the registry, listed as the API lists it. */
const vocabulary = browseVocabulary(descriptorListings(), TAGGER_TAG_NAMES);
const formFromParams = (params: URLSearchParams) => formOf(params, vocabulary);

describe('the browse page filters', () => {
  it('offers every mood of the registry, and the orders of every descriptor browse orders by', () => {
    expect(vocabulary.moods.map(([name]) => name)).toEqual(MOODS.map((m) => m.name));
    expect(vocabulary.moods).toContainEqual(['relaxed', 'Relaxed']);
    expect(vocabulary.orders.slice(0, 3).map(([o]) => o)).toEqual(['ANALYSED_AT', 'TEMPO', 'TAG']);
    expect(vocabulary.orders).toContainEqual(['MOOD_HAPPY', 'Happy']);
    expect(vocabulary.orders).toContainEqual(['INSTRUMENTALNESS', 'Instrumentalness']);
    // A descriptor the registry adds is offered: what the page lists is what the API lists.
    const more = browseVocabulary([...descriptorListings(), { name: 'nostalgic', group: 'MOOD', label: 'Nostalgic', orderField: 'MOOD_NOSTALGIC' }]);
    expect(formOf(new URLSearchParams('mood=nostalgic&order=MOOD_NOSTALGIC'), more)).toMatchObject({ mood: 'nostalgic', order: 'MOOD_NOSTALGIC' });
  });

  it('reads a form from the URL and writes it back unchanged', () => {
    const query = 'mood=relaxed&moodMin=0.6&tempoMin=80&tempoMax=120&key=0%2C9&mode=0&tag=Hip-Hop&tagTop=5&order=TEMPO&dir=ASC';
    const form = formFromParams(new URLSearchParams(query));
    expect(form).toEqual({ mood: 'relaxed', moodMin: '0.6', tempoMin: '80', tempoMax: '120', keys: [0, 9], mode: '0', tag: 'Hip-Hop', tagTop: '5', order: 'TEMPO', direction: 'ASC' });
    expect(paramsFromForm(form).toString()).toBe(query);
  });

  it('keeps a plain /browse plain: the empty form has no query', () => {
    expect(paramsFromForm(EMPTY_FORM).toString()).toBe('');
    expect(formFromParams(new URLSearchParams())).toEqual(EMPTY_FORM);
  });

  it('drops values a hand-edited URL may hold that the API would refuse', () => {
    const form = formFromParams(new URLSearchParams('mood=ecstatic&key=3,12,x,3,-1&mode=2&tag=polka&order=DROP_TABLE&dir=sideways'));
    expect(form).toEqual({ ...EMPTY_FORM, keys: [3] });
  });

  it('turns the form into the arguments of tracks(filter, orderBy)', () => {
    const form = { ...EMPTY_FORM, mood: 'happy' as const, moodMin: '0.7', tempoMin: '90', keys: [2, 7], mode: '1' as const, tag: 'jazz', tagTop: '4', order: 'MOOD_HAPPY' as const };
    expect(variablesOfForm(form)).toEqual({
      filter: { mood: { happy: { min: 0.7 } }, tempo: { min: 90 }, key: [2, 7], mode: 1, tags: [{ name: 'jazz', top: 4 }] },
      orderBy: { field: 'MOOD_HAPPY', direction: 'DESC' },
    });
  });

  it('orders by the chosen tag’s probability, and by the default order when no tag is chosen', () => {
    const form = formFromParams(new URLSearchParams('tag=jazz&tagTop=5&order=TAG&dir=ASC'));
    expect(form).toMatchObject({ tag: 'jazz', order: 'TAG', direction: 'ASC' });
    expect(paramsFromForm(form).toString()).toBe('tag=jazz&tagTop=5&order=TAG&dir=ASC');
    expect(variablesOfForm(form)).toEqual({ filter: { tags: [{ name: 'jazz', top: 5 }] }, orderBy: { field: 'TAG', tag: 'jazz', direction: 'ASC' } });
    expect(variablesOfForm({ ...EMPTY_FORM, order: 'TAG' }).orderBy).toEqual({ field: 'ANALYSED_AT', direction: 'DESC' });
  });

  it('asks for no filter when nothing is set, and ignores numbers out of range', () => {
    expect(variablesOfForm(EMPTY_FORM).filter).toBeNull();
    expect(variablesOfForm({ ...EMPTY_FORM, tempoMin: 'fast', tempoMax: '-5', mood: 'sad', moodMin: '1.5' }).filter).toBeNull();
    // A mood score without a mood is not a filter, nor a tag's rank without a tag.
    expect(variablesOfForm({ ...EMPTY_FORM, moodMin: '0.9' }).filter).toBeNull();
    expect(variablesOfForm({ ...EMPTY_FORM, tagTop: '7' }).filter).toBeNull();
    for (const tagTop of ['0', '51', '2.5', 'many']) expect(variablesOfForm({ ...EMPTY_FORM, tag: 'rock', tagTop }).filter).toBeNull();
  });
});
