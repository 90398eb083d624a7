/**
 * What each class of the bundled corpora is about, in a few words a person would write (issue 47: "a short
 * description written into the CLI's built-in corpora"). TOKI relates a pool word to its class through the
 * class's name, its WordNet description and these words (@xtrust/oracle `classDescriptions`): WordNet knows
 * "Republican" as a river too, and "ham" only as meat, while a user knows what the corpus's classes hold.
 *
 * Written from what each corpus is (SpamAssassin's public corpus: unsolicited bulk mail against mail people
 * asked for, much of it from software mailing lists; the Brown corpus's genre categories; the two parties of
 * the State of the Union addresses), about the subject rather than about any word of a benchmark list; a
 * user with a corpus of their own writes theirs with `--class-descriptions FILE`.
 */

/** SpamAssassin's two classes (labels `ham`, `spam`). */
export const SPAM_ASSASSIN_CLASS_DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  ham: 'e-mail a person asked for: personal and work correspondence, mailing-list discussion of software, linux, programming, computers, networks, open source and technology news',
  spam: 'unsolicited bulk advertising e-mail: offers, sales, money, loans, mortgages, credit, investment, income, prizes, discounts, pharmacy, adult sites, marketing',
});

/** The Brown corpus's 15 genres, by the labels of BROWN_GENRES. */
export const BROWN_GENRE_DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  news: 'press reportage: newspaper reports of events, politics, elections, sports, crime, courts, business and society',
  editorial: 'press editorials and letters: opinion and commentary arguing about public affairs',
  reviews: 'press reviews of books, films, theatre, music, art and performances',
  religion: 'religion: church, god, faith, prayer, worship, scripture, theology, clergy and the spirit',
  hobbies:
    'skills and hobbies: crafts, gardening, cooking, sports, boating, photography, music, home building and pets',
  lore: 'popular lore: history, biography, travel, health, nature and popular science',
  'belles lettres': 'belles lettres: essays, memoirs, biography and literary criticism',
  government:
    'government documents: laws, regulations, federal agencies, public programs, budgets, taxes, official reports and administration',
  learned: 'learned and scientific writing: research, science, medicine, engineering, mathematics and scholarship',
  fiction: 'general fiction: novels and short stories',
  mystery: 'mystery and detective fiction: crime, murder, detectives, police and investigation',
  'science fiction': 'science fiction: space, planets, the future, aliens, robots and technology',
  adventure: 'adventure and western fiction: cowboys, guns, horses, fights, journeys and danger',
  romance: 'romance and love stories: love, courtship, marriage, kisses, feelings and relationships',
  humor: 'humor: comic writing, jokes, satire, wit and funny stories',
});

/** The two parties of the State of the Union addresses (labels `Democratic`, `Republican`). */
export const SOTU_PARTY_DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  Democratic:
    'the Democratic Party of the United States: liberal, labor, unions, working families, social security, welfare, health care, civil rights, environment and regulation of business',
  Republican:
    'the Republican Party of the United States: conservative, free enterprise, business, lower taxes, limited government, national defense, law and order and family values',
});
