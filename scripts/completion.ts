/**
 * `openwop-spec completion bash|zsh|fish`: a completion script for the shell, made from the verbs
 * and options the command line itself declares, so it never lists a flag that is gone. Values are
 * completed where the tool knows them: a format from the option's `a | b | c`, a rule id for
 * --rule, directories for a `<dir>`, files for a `<file>` and for a verb's file arguments.
 */
import type { Command, Option } from 'commander';
import { ALL_RULES } from './catalog.js';
import { TOOL_NAME, UsageError } from './tool.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

export function register(program: Command): void {
  program
    .command('completion')
    .description('print a completion script for bash, zsh or fish (see README, "Shell completion")')
    .argument('<shell>', SHELLS.join(' | '))
    .action((shell: string, _options: unknown, command: Command) => {
      if (!(SHELLS as readonly string[]).includes(shell))
        throw new UsageError(`no completion for "${shell}"; use one of ${SHELLS.join(', ')}`);
      process.stdout.write(completionScript(shell as Shell, describeVerbs(command.parent ?? program)));
    });
}

/** What a completion needs of one option: its name, whether it takes a value, and what values. */
export interface OptionShape {
  long: string;
  description: string;
  /** undefined: a flag; else how its value completes. */
  value?: { kind: 'words'; words: string[] } | { kind: 'dir' } | { kind: 'file' } | { kind: 'any' };
}

export interface VerbShape {
  name: string;
  description: string;
  options: OptionShape[];
  /** Whether it takes file or directory arguments (`check FILE…`, `verify <dir|tgz>`). */
  files: boolean;
  /** The values its argument takes, when its description lists them `a | b | c`. */
  words?: string[];
}

export function describeVerbs(program: Command): VerbShape[] {
  const rules = [
    ...new Set([...ALL_RULES.map((rule) => rule.id), ...ALL_RULES.map((rule) => `${rule.id.split('/')[0]}/*`)]),
  ].sort();
  return program.commands
    .filter((verb) => verb.name() !== 'help')
    .map((verb) => ({
      name: verb.name(),
      description: verb.description(),
      options: [
        ...verb.options.map((option) => optionShape(option, rules)),
        { long: '--help', description: 'show help for this verb' },
      ],
      // Every verb's arguments are paths (files, directories, releases), except this one's shell.
      files: verb.registeredArguments.length > 0 && verb.name() !== 'completion',
      ...wordsOf(verb.registeredArguments[0]?.description ?? ''),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** A list of values written `a | b | c` in a description (the formats a verb takes, the shells). */
function alternatives(description: string): string[] | undefined {
  return /\b([a-z][a-z-]*(?: \| [a-z][a-z-]*)+)\b/.exec(description)?.[1]?.split(' | ');
}

function wordsOf(description: string): { words?: string[] } {
  const words = alternatives(description);
  return words ? { words } : {};
}

function optionShape(option: Option, rules: readonly string[]): OptionShape {
  const long = option.long ?? option.flags;
  const shape: OptionShape = { long, description: option.description };
  if (!option.required && !option.optional) return shape;
  const placeholder = /<([^>]+)>/.exec(option.flags)?.[1] ?? '';
  const listed = alternatives(option.description);
  if (option.argChoices) shape.value = { kind: 'words', words: [...option.argChoices] };
  else if (long === '--rule') shape.value = { kind: 'words', words: [...rules] };
  else if (listed) shape.value = { kind: 'words', words: listed };
  else if (placeholder === 'dir') shape.value = { kind: 'dir' };
  else if (/file|release|key/.test(placeholder)) shape.value = { kind: 'file' };
  else shape.value = { kind: 'any' };
  return shape;
}

export function completionScript(shell: Shell, verbs: readonly VerbShape[]): string {
  return shell === 'bash' ? bash(verbs) : shell === 'zsh' ? zsh(verbs) : fish(verbs);
}

const fn = `_${TOOL_NAME.replace(/-/g, '_')}`;
/** Quoted for a POSIX-like shell: single quotes, a single quote as `'\''`. */
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function bash(verbs: readonly VerbShape[]): string {
  const valueCases: string[] = [];
  const verbCases: string[] = [];
  for (const verb of verbs) {
    verbCases.push(
      `    ${verb.name}) opts=${quote(verb.options.map((o) => o.long).join(' '))}; files=${verb.files ? 1 : 0}; words=${quote((verb.words ?? []).join(' '))} ;;`,
    );
    for (const option of verb.options) {
      if (!option.value) continue;
      // mapfile, not COMPREPLY=($(…)): a reply such as `links/*` must not be expanded as a glob.
      const reply =
        option.value.kind === 'words'
          ? `mapfile -t COMPREPLY < <(compgen -W ${quote(option.value.words.join(' '))} -- "$cur")`
          : option.value.kind === 'dir'
            ? 'mapfile -t COMPREPLY < <(compgen -d -- "$cur")'
            : option.value.kind === 'file'
              ? 'mapfile -t COMPREPLY < <(compgen -f -- "$cur")'
              : 'COMPREPLY=()';
      valueCases.push(`    ${verb.name}:${option.long}) ${reply}; return ;;`);
    }
  }
  return `# ${TOOL_NAME} completion for bash. Load it with: source <(${TOOL_NAME} completion bash)
# or save it as ~/.local/share/bash-completion/completions/${TOOL_NAME}.
${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} verb=\${COMP_WORDS[1]} opts='' files=0 words=''
  if [[ $COMP_CWORD -eq 1 ]]; then
    mapfile -t COMPREPLY < <(compgen -W ${quote(verbs.map((v) => v.name).join(' '))} -- "$cur")
    return
  fi
  case "$verb:$prev" in
${valueCases.join('\n')}
  esac
  case "$verb" in
${verbCases.join('\n')}
  esac
  if [[ $cur != -* && -n $words ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
  elif [[ $cur == -* || $files -eq 0 ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -o filenames -o bashdefault -F ${fn} ${TOOL_NAME}
`;
}

/** Text inside a zsh _arguments description: brackets and colons would end the field. */
const zshText = (text: string): string => text.replace(/[[\]:\\]/g, (c) => `\\${c}`).replace(/'/g, `'\\''`);

function zsh(verbs: readonly VerbShape[]): string {
  const cases = verbs.map((verb) => {
    const specs = verb.options.map((option) => {
      // `*`: zsh offers an option again only when it may be repeated.
      const head = `${/\brepeatable\b/.test(option.description) ? '*' : ''}${option.long}[${zshText(option.description.split('\n')[0] ?? '')}]`;
      if (!option.value) return `'${head}'`;
      const action =
        option.value.kind === 'words'
          ? `(${option.value.words.map((w) => w.replace(/([*?()|\\ ])/g, '\\$1')).join(' ')})`
          : option.value.kind === 'dir'
            ? '_files -/'
            : option.value.kind === 'file'
              ? '_files'
              : ' ';
      return `'${head}:value:${action}'`;
    });
    if (verb.words) specs.push(`'1:${verb.name === 'completion' ? 'shell' : 'value'}:(${verb.words.join(' ')})'`);
    else if (verb.files) specs.push(`'*:file:_files'`);
    return `    ${verb.name})\n      _arguments -s \\\n        ${specs.join(' \\\n        ')}\n      ;;`;
  });
  return `#compdef ${TOOL_NAME}
# ${TOOL_NAME} completion for zsh. Load it with: source <(${TOOL_NAME} completion zsh)
# or save it as _${TOOL_NAME} in a directory of your $fpath.
${fn}() {
  local -a verbs
  verbs=(
${verbs.map((v) => `    '${v.name}:${zshText(v.description)}'`).join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe -t verbs 'verb' verbs
    return
  fi
  local verb=$words[2]
  shift words
  (( CURRENT-- ))
  case $verb in
${cases.join('\n')}
  esac
}
if [[ $funcstack[1] == ${fn} ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${TOOL_NAME}
fi
`;
}

function fish(verbs: readonly VerbShape[]): string {
  const lines = [
    `# ${TOOL_NAME} completion for fish. Load it with: ${TOOL_NAME} completion fish | source`,
    `# or save it as ~/.config/fish/completions/${TOOL_NAME}.fish.`,
    `complete -c ${TOOL_NAME} -f`,
  ];
  for (const verb of verbs)
    lines.push(`complete -c ${TOOL_NAME} -n __fish_use_subcommand -a ${verb.name} -d ${quote(verb.description)}`);
  for (const verb of verbs) {
    const when = `-n ${quote(`__fish_seen_subcommand_from ${verb.name}`)}`;
    if (verb.words) lines.push(`complete -c ${TOOL_NAME} ${when} -x -a ${quote(verb.words.join(' '))}`);
    else if (verb.files) lines.push(`complete -c ${TOOL_NAME} ${when} -F`);
    for (const option of verb.options) {
      const value = !option.value
        ? ''
        : option.value.kind === 'words'
          ? ` -x -a ${quote(option.value.words.join(' '))}`
          : option.value.kind === 'dir'
            ? ` -x -a '(__fish_complete_directories)'`
            : option.value.kind === 'file'
              ? ' -r -F'
              : ' -x';
      lines.push(
        `complete -c ${TOOL_NAME} ${when} -l ${option.long.replace(/^--/, '')}${value} -d ${quote(option.description.split('\n')[0] ?? '')}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
