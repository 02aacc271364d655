import { Field } from '../core/validation/field';

export class ListJobsQueryDto {
  @Field({ kind: 'string', required: false, description: 'Comma list of states; `!state` excludes one.', example: '!finished,!failed,!cancelled' })
  states?: string;

  @Field({ kind: 'string', required: false, description: 'Comma list of job ids.' })
  job_ids?: string;
}
